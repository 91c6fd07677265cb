// deno-lint-ignore-file no-explicit-any
// The organizations API through a real HTTP server (serve() on a free port): the specification's
// invitation flow end to end with two users and cookies (PGlite and PostgreSQL), and the two
// races, last owner and double accept, with truly concurrent requests on the PostgreSQL server.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { type RunningServer, serve } from "../../src/core/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { uniqueEmail } from "./helpers/http.ts";
import { DIRECT_ADD, organizationsModule } from "./helpers/organizations.ts";
import { latestMail, verifyEmail } from "./helpers/verification.ts";

const PASSWORD = "correct horse battery";

/** A browser-like client: keeps the service_auth cookie and sends Origin on unsafe requests. */
class CookieClient {
  cookie: string | null = null;
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (method !== "GET") headers.origin = new URL(this.base).origin;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${this.base}/api/auth${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get("set-cookie");
    if (setCookie) {
      const pair = setCookie.split(";")[0];
      this.cookie = pair === "service_auth=" ? null : pair;
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
}

/** A client presenting a Bearer token (the races use several credentials at once). */
async function bearer(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}/api/auth${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

forEachAdapter((name, getAdapter) => {
  // A nested suite, so the server (and its hook worker) stops before the adapter closes.
  describe(`${name}: served`, () => {
    let db: SqlAdapter;
    let module: AuthModule;
    let server: RunningServer;
    let base: string;

    before(async () => {
      db = getAdapter();
      module = await organizationsModule(db, { organizations: DIRECT_ADD });
      server = await serve([module], { port: 0, hostname: "127.0.0.1", handleSignals: false });
      base = server.url;
    });

    after(async () => {
      await server?.shutdown();
    });

    async function signUp(): Promise<{ token: string; user: { id: string; email: string } }> {
      const response = await fetch(`${base}/api/auth/sign-up`, {
        method: "POST",
        body: JSON.stringify({ email: uniqueEmail("race"), password: PASSWORD }),
        headers: { "content-type": "application/json" },
      });
      assert.equal(response.status, 200);
      const signed = await response.json();
      await verifyEmail(module, signed.user.id);
      return signed;
    }

    describe(`${name}: the invitation flow over HTTP with cookies`, () => {
      it("invite, list, accept, and see the membership on both sides", async () => {
        const alice = new CookieClient(base);
        const bob = new CookieClient(base);
        const bobEmail = uniqueEmail("bob");
        assert.equal(
          (await alice.request("POST", "/sign-up", {
            email: uniqueEmail("alice"),
            password: PASSWORD,
          })).status,
          200,
        );
        assert.ok(alice.cookie?.startsWith("service_auth="));
        const created = await alice.request("POST", "/organizations", {
          name: "Alice & Co",
          slug: `alice-${crypto.randomUUID().slice(0, 8)}`,
        });
        assert.equal(created.status, 201);
        const organizationId = created.body.organization.id;

        // (1) Alice invites Bob's email.
        const invited = await alice.request(
          "POST",
          `/organizations/${organizationId}/invitations`,
          {
            email: bobEmail,
          },
        );
        assert.equal(invited.status, 201);
        const invitationId = invited.body.invitation.id;

        // (3) Bob signs up and finds the invitation in /me and in his list, never with its token:
        // only the inviter's creation answer carries it (to send it to Bob out of band).
        const signedUp = await bob.request("POST", "/sign-up", {
          email: bobEmail,
          password: PASSWORD,
        });
        assert.equal(signedUp.status, 200);
        // Until Bob proves he reads mail at that address, the invitation is not his to see.
        assert.deepEqual((await bob.request("GET", "/me")).body.invitations, []);
        const verified = await bob.request("POST", "/verify-email", {
          token: latestMail(module, signedUp.body.user.id).token,
        });
        assert.equal(verified.status, 200);
        assert.equal(verified.body.user.emailVerified, true);
        const me = await bob.request("GET", "/me");
        assert.deepEqual(me.body.invitations.map((e: any) => e.invitation.id), [invitationId]);
        assert.equal(me.body.invitations[0].organization.name, "Alice & Co");
        assert.ok(!("token" in me.body.invitations[0].invitation));
        const mine = await bob.request("GET", "/organizations/invitations");
        assert.equal(mine.status, 200);
        assert.ok(!("token" in mine.body.invitations[0].invitation));
        const token = invited.body.invitation.token;

        // (2) Bob accepts with the token.
        const accepted = await bob.request("PATCH", `/organizations/invitations/${invitationId}`, {
          action: "accept",
          token,
        });
        assert.equal(accepted.status, 200);
        assert.deepEqual(accepted.body.member.roles, ["member"]);

        const after = await bob.request("GET", "/me");
        assert.deepEqual(after.body.organizations.map((e: any) => e.organization.id), [
          organizationId,
        ]);
        assert.equal(after.body.activeOrganization.organization.id, organizationId);
        assert.deepEqual(after.body.invitations, []);
        const members = await alice.request("GET", `/organizations/${organizationId}/members`);
        assert.deepEqual(
          members.body.members.map((m: any) => [m.userId, m.roles]),
          [[created.body.member.userId, ["owner"]], [signedUp.body.user.id, ["member"]]],
        );

        const cookie = bob.cookie;
        assert.equal((await bob.request("POST", "/sign-out")).status, 204);
        assert.equal(bob.cookie, null, "cookie cleared");
        bob.cookie = cookie;
        assert.equal((await bob.request("GET", "/me")).status, 401);
      });
    });

    if (name !== "postgres") return;

    describe(`${name}: races with concurrent requests`, () => {
      it("two owners demoting each other at once: one wins, one owner remains", async () => {
        for (let round = 0; round < 8; round++) {
          const a = await signUp();
          const b = await signUp();
          const created = await bearer(base, a.token, "POST", "/organizations", {
            name: "Race",
            slug: `race-${crypto.randomUUID().slice(0, 8)}`,
          });
          const id = created.body.organization.id;
          const aMember = created.body.member.id;
          const added = await bearer(base, a.token, "POST", `/organizations/${id}/members`, {
            userId: b.user.id,
            roles: ["owner"],
          });
          const bMember = added.body.member.id;
          const results = await Promise.all([
            bearer(base, a.token, "PATCH", `/organizations/${id}/members/${bMember}`, {
              roles: ["member"],
            }),
            bearer(base, b.token, "PATCH", `/organizations/${id}/members/${aMember}`, {
              roles: ["member"],
            }),
          ]);
          const statuses = results.map((r) => r.status).sort();
          // The loser either lost its owner role first (403) or found itself the last owner (409).
          assert.equal(statuses[0], 200, JSON.stringify(results));
          assert.ok(statuses[1] === 403 || statuses[1] === 409, JSON.stringify(results));
          const [{ owners }] = await db.query<{ owners: number }>(
            `SELECT count(*)::int AS owners FROM auth.members
             WHERE organization_id = $1 AND roles @> '["owner"]'::jsonb`,
            [id],
          );
          assert.equal(owners, 1, `round ${round}`);
        }
      });

      it("two owners leaving at once: exactly one leaves", async () => {
        for (let round = 0; round < 8; round++) {
          const a = await signUp();
          const b = await signUp();
          const created = await bearer(base, a.token, "POST", "/organizations", {
            name: "Leave",
            slug: `leave-${crypto.randomUUID().slice(0, 8)}`,
          });
          const id = created.body.organization.id;
          const added = await bearer(base, a.token, "POST", `/organizations/${id}/members`, {
            userId: b.user.id,
            roles: ["owner"],
          });
          const results = await Promise.all([
            bearer(
              base,
              a.token,
              "DELETE",
              `/organizations/${id}/members/${created.body.member.id}`,
            ),
            bearer(base, b.token, "DELETE", `/organizations/${id}/members/${added.body.member.id}`),
          ]);
          assert.deepEqual(
            results.map((r) => r.status).sort(),
            [204, 409],
            JSON.stringify(results),
          );
          const conflict = results.find((r) => r.status === 409);
          assert.equal(conflict?.body.error.code, "LAST_OWNER");
          const [{ owners }] = await db.query<{ owners: number }>(
            `SELECT count(*)::int AS owners FROM auth.members
             WHERE organization_id = $1 AND roles @> '["owner"]'::jsonb`,
            [id],
          );
          assert.equal(owners, 1);
        }
      });

      it("an accept racing its inviter's demotion either joins before it or is revoked", async () => {
        const outcomes = new Set<string>();
        for (let round = 0; round < 8; round++) {
          const owner = await signUp();
          const admin = await signUp();
          const invitee = await signUp();
          const created = await bearer(base, owner.token, "POST", "/organizations", {
            name: "Race",
            slug: `race-${crypto.randomUUID().slice(0, 8)}`,
          });
          const id = created.body.organization.id;
          const added = await bearer(base, owner.token, "POST", `/organizations/${id}/members`, {
            userId: admin.user.id,
            roles: ["admin"],
          });
          const invitation =
            (await bearer(base, admin.token, "POST", `/organizations/${id}/invitations`, {
              email: invitee.user.email,
            })).body.invitation;
          const [demoted, accepted] = await Promise.all([
            bearer(
              base,
              owner.token,
              "PATCH",
              `/organizations/${id}/members/${added.body.member.id}`,
              {
                roles: ["member"],
              },
            ),
            bearer(base, invitee.token, "PATCH", `/organizations/invitations/${invitation.id}`, {
              action: "accept",
              token: invitation.token,
            }),
          ]);
          assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
          const members = await db.query(
            "SELECT 1 FROM auth.members WHERE organization_id = $1 AND user_id = $2",
            [id, invitee.user.id],
          );
          if (accepted.status === 200) {
            assert.equal(members.length, 1);
            outcomes.add("joined first");
          } else {
            assert.equal(accepted.status, 409, JSON.stringify(accepted.body));
            assert.equal(accepted.body.error.code, "INVITATION_REVOKED");
            assert.equal(members.length, 0);
            outcomes.add("revoked");
          }
        }
        assert.ok(outcomes.size > 0);
      });

      it("concurrent accepts of one invitation make one member and one 200", async () => {
        for (let round = 0; round < 8; round++) {
          const owner = await signUp();
          const invitee = await signUp();
          // Several credentials of the invitee, all accepting at once.
          const tokens = [invitee.token];
          for (let i = 0; i < 3; i++) {
            const response = await fetch(`${base}/api/auth/sign-in`, {
              method: "POST",
              body: JSON.stringify({ email: invitee.user.email, password: PASSWORD }),
              headers: { "content-type": "application/json" },
            });
            tokens.push((await response.json()).token);
          }
          const created = await bearer(base, owner.token, "POST", "/organizations", {
            name: "Accept",
            slug: `accept-${crypto.randomUUID().slice(0, 8)}`,
          });
          const id = created.body.organization.id;
          const invitation =
            (await bearer(base, owner.token, "POST", `/organizations/${id}/invitations`, {
              email: invitee.user.email,
              roles: ["admin"],
            })).body.invitation;
          const results = await Promise.all(
            tokens.map((token) =>
              bearer(base, token, "PATCH", `/organizations/invitations/${invitation.id}`, {
                action: "accept",
                token: invitation.token,
              })
            ),
          );
          const statuses = results.map((r) => r.status).sort();
          assert.deepEqual(
            statuses,
            [200, 409, 409, 409],
            JSON.stringify(results.map((r) => r.body)),
          );
          assert.ok(
            results.filter((r) => r.status === 409).every((r) =>
              r.body.error.code === "INVITATION_NOT_PENDING"
            ),
          );
          const rows = await db.query<{ roles: string[] }>(
            "SELECT roles FROM auth.members WHERE organization_id = $1 AND user_id = $2",
            [id, invitee.user.id],
          );
          assert.deepEqual(rows.map((r) => r.roles), [["admin"]]);
        }
      });
    });
  });
});
