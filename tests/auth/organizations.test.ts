// deno-lint-ignore-file no-explicit-any
// Organizations over HTTP on PGlite and PostgreSQL: create (slug rules, creator roles, active
// organization), list (keyset pages, deleted ones filtered in SQL), fetch, update, soft delete,
// the per-credential active organization, and GET /me with a bounded number of queries.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  invite,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;

  before(async () => {
    db = getAdapter();
    module = await organizationsModule(db, { organizations: DIRECT_ADD });
  });

  describe(`${name}: POST /organizations`, () => {
    it("creates the organization and the creator's owner membership, with exact fields", async () => {
      const owner = await newUser(module, "creator");
      const result = await call(module, "POST", "/organizations", {
        token: owner.token,
        body: {
          name: "  Acme Corp ",
          slug: `acme-${crypto.randomUUID().slice(0, 8)}`,
          logoUrl: "https://cdn.example.com/acme.png",
          metadata: { plan: "pro", seats: 5 },
        },
      });
      assert.equal(result.status, 201);
      const { organization, member, permissions } = result.body;
      // An entry (issue 32): the creator's effective permissions ride along (an owner: all).
      assert.deepEqual(Object.keys(result.body).sort(), [
        "access",
        "member",
        "organization",
        "permissions",
      ]);
      assert.equal(result.body.access, "member");
      assert.ok(permissions.includes("organization:delete") && permissions.includes("audit:read"));
      assert.deepEqual(Object.keys(organization).sort(), [
        "createdAt",
        "createdBy",
        "deletedAt",
        "id",
        "logoUrl",
        "metadata",
        "name",
        "requireTwoFactor",
        "slug",
        "updatedAt",
      ]);
      assert.equal(organization.name, "Acme Corp");
      assert.equal(organization.requireTwoFactor, false);
      assert.equal(organization.logoUrl, "https://cdn.example.com/acme.png");
      assert.deepEqual(organization.metadata, { plan: "pro", seats: 5 });
      assert.equal(organization.createdBy, owner.user.id);
      assert.equal(organization.deletedAt, null);
      assert.match(organization.createdAt, ISO);
      assert.match(organization.updatedAt, ISO);
      assert.deepEqual(Object.keys(member).sort(), [
        "createdAt",
        "id",
        "organizationId",
        "roles",
        "updatedAt",
        "userId",
      ]);
      assert.deepEqual(member.roles, ["owner"]);
      assert.equal(member.organizationId, organization.id);
      assert.equal(member.userId, owner.user.id);
    });

    it("normalizes slugs and refuses invalid or reserved ones with 400", async () => {
      const owner = await newUser(module);
      const suffix = crypto.randomUUID().slice(0, 8);
      const created = await call(module, "POST", "/organizations", {
        token: owner.token,
        body: { name: "Crème", slug: `  Crème Brûlée ${suffix}!! ` },
      });
      assert.equal(created.status, 201);
      assert.equal(created.body.organization.slug, `creme-brulee-${suffix}`);
      const fromName = await call(module, "POST", "/organizations", {
        token: owner.token,
        body: { name: `Named Only ${suffix}` },
      });
      assert.equal(fromName.body.organization.slug, `named-only-${suffix}`);
      for (const slug of ["ab", "active", "Invitations", "x".repeat(64), "---", "__"]) {
        const result = await call(module, "POST", "/organizations", {
          token: owner.token,
          body: { name: "Bad slug", slug },
        });
        assertError(result, 400, "VALIDATION_ERROR");
        assert.equal(result.body.issues[0].path, "body.slug", slug);
      }
      const noSlugFromName = await call(module, "POST", "/organizations", {
        token: owner.token,
        body: { name: "Me" },
      });
      assertError(noSlugFromName, 400, "VALIDATION_ERROR");
    });

    it("answers 409 SLUG_TAKEN for a taken slug, also one of a deleted organization", async () => {
      const owner = await newUser(module);
      const { id, slug } = await createOrganization(module, owner);
      const taken = await call(module, "POST", "/organizations", {
        token: owner.token,
        body: { name: "Again", slug: slug.toUpperCase() },
      });
      assertError(taken, 409, "SLUG_TAKEN");
      assert.equal(
        (await call(module, "DELETE", `/organizations/${id}`, { token: owner.token })).status,
        204,
      );
      const afterDelete = await call(module, "POST", "/organizations", {
        token: owner.token,
        body: { name: "Again", slug },
      });
      assertError(afterDelete, 409, "SLUG_TAKEN");
    });

    it("validates name, logoUrl (http/https only) and metadata size", async () => {
      const owner = await newUser(module);
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "" }, "body.name"],
        [{ name: "x".repeat(121) }, "body.name"],
        [{ name: "Logo", logoUrl: "javascript:alert(1)" }, "body.logoUrl"],
        [{ name: "Logo", logoUrl: "data:image/png;base64,AAAA" }, "body.logoUrl"],
        [{ name: "Logo", logoUrl: "not a url" }, "body.logoUrl"],
        // 1,020 characters that percent-encode to more than 2,048.
        [{ name: "Logo", logoUrl: `https://example.com/${"<".repeat(1000)}` }, "body.logoUrl"],
        [{ name: "Big", metadata: { blob: "x".repeat(9000) } }, "body.metadata"],
      ];
      for (const [body, path] of cases) {
        const result = await call(module, "POST", "/organizations", {
          token: owner.token,
          body: { slug: `v-${crypto.randomUUID().slice(0, 8)}`, ...body },
        });
        assertError(result, 400, "VALIDATION_ERROR");
        assert.ok(result.body.issues.some((i: { path: string }) => i.path === path), path);
      }
    });

    it("stores the normalized href of logoUrl (case, default port, dot segments, escapes)", async () => {
      const owner = await newUser(module);
      const cases: [string, string][] = [
        ["HTTPS://CDN.Example.COM:443/a/./b/../logo.png", "https://cdn.example.com/a/logo.png"],
        ["http://example.com", "http://example.com/"],
        ["https://example.com/a b?q=<x>", "https://example.com/a%20b?q=%3Cx%3E"],
        ["https://bücher.example/", "https://xn--bcher-kva.example/"],
      ];
      for (const [given, stored] of cases) {
        const result = await call(module, "POST", "/organizations", {
          token: owner.token,
          body: { name: "Logo", slug: `l-${crypto.randomUUID().slice(0, 8)}`, logoUrl: given },
        });
        assert.equal(result.status, 201, JSON.stringify(result.body));
        assert.equal(result.body.organization.logoUrl, stored, given);
      }
    });

    it("makes the new organization the credential's active one only when it had none", async () => {
      const owner = await newUser(module);
      const first = await createOrganization(module, owner);
      await createOrganization(module, owner);
      const active = await call(module, "GET", "/organizations/active", { token: owner.token });
      assert.equal(active.body.organization.id, first.id);
    });
  });

  describe(`${name}: GET /organizations`, () => {
    it("pages the caller's organizations with a cursor, skipping deleted ones in the query", async () => {
      const owner = await newUser(module, "pager");
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await createOrganization(module, owner)).id);
      // Another user's organization never shows up.
      await createOrganization(module, await newUser(module));
      for (const id of [ids[1], ids[2], ids[4]]) {
        assert.equal(
          (await call(module, "DELETE", `/organizations/${id}`, { token: owner.token })).status,
          204,
        );
      }
      const live = [ids[0], ids[3], ids[5], ids[6]];
      const first = await call(module, "GET", "/organizations?pageSize=2", { token: owner.token });
      assert.equal(first.status, 200);
      assert.deepEqual(Object.keys(first.body).sort(), ["cursor", "hasNextPage", "organizations"]);
      assert.deepEqual(
        first.body.organizations.map((e: any) => e.organization.id),
        live.slice(0, 2),
      );
      assert.equal(first.body.hasNextPage, true);
      assert.equal(typeof first.body.cursor, "string");
      assert.deepEqual(first.body.organizations[0].member.roles, ["owner"]);
      const second = await call(
        module,
        "GET",
        `/organizations?pageSize=2&cursor=${encodeURIComponent(first.body.cursor)}`,
        { token: owner.token },
      );
      assert.deepEqual(second.body.organizations.map((e: any) => e.organization.id), live.slice(2));
      assert.equal(second.body.hasNextPage, false);
      assert.equal(second.body.cursor, null);
      const all = await call(module, "GET", "/organizations", { token: owner.token });
      assert.deepEqual(all.body.organizations.map((e: any) => e.organization.id), live);
    });

    it("rejects a foreign or altered cursor and a bad pageSize with 400, clamps pageSize to 100", async () => {
      const owner = await newUser(module);
      for (let i = 0; i < 2; i++) await createOrganization(module, owner);
      const page = await call(module, "GET", "/organizations?pageSize=1", { token: owner.token });
      const other = await newUser(module);
      await createOrganization(module, other);
      await createOrganization(module, other);
      const foreign = await call(
        module,
        "GET",
        `/organizations?cursor=${encodeURIComponent(page.body.cursor)}`,
        { token: other.token },
      );
      assertError(foreign, 400, "INVALID_CURSOR");
      const altered = await call(module, "GET", `/organizations?cursor=${page.body.cursor}x`, {
        token: owner.token,
      });
      assertError(altered, 400, "INVALID_CURSOR");
      for (const size of ["0", "-1", "abc", "1.5"]) {
        assertError(
          await call(module, "GET", `/organizations?pageSize=${size}`, { token: owner.token }),
          400,
          "INVALID_PAGE_SIZE",
        );
      }
      const clamped = await call(module, "GET", "/organizations?pageSize=100000", {
        token: owner.token,
      });
      assert.equal(clamped.status, 200);
      assert.equal(clamped.body.organizations.length, 2);
    });
  });

  describe(`${name}: PATCH and DELETE /organizations/:organizationId`, () => {
    it("updates name, slug, logoUrl and metadata; null clears; at least one field", async () => {
      const owner = await newUser(module);
      const { id, body } = await createOrganization(module, owner, {
        logoUrl: "http://example.com/a.png",
        metadata: [1, 2],
      });
      const slug = `renamed-${crypto.randomUUID().slice(0, 8)}`;
      const result = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { name: "Renamed", slug: slug.toUpperCase(), logoUrl: null, metadata: "text" },
      });
      assert.equal(result.status, 200);
      assert.deepEqual(Object.keys(result.body), ["organization"]);
      const updated = result.body.organization;
      assert.equal(updated.name, "Renamed");
      assert.equal(updated.slug, slug);
      assert.equal(updated.logoUrl, null);
      assert.equal(updated.metadata, "text");
      assert.equal(updated.createdAt, body.organization.createdAt);
      const [times] = await db.query<{ later: boolean }>(
        "SELECT updated_at > created_at AS later FROM auth.organizations WHERE id = $1",
        [id],
      );
      assert.equal(times.later, true, "updatedAt moved");
      const cleared = await call(module, "PATCH", `/organizations/${id}`, {
        token: owner.token,
        body: { metadata: null },
      });
      assert.equal(cleared.body.organization.metadata, null);
      assertError(
        await call(module, "PATCH", `/organizations/${id}`, { token: owner.token, body: {} }),
        400,
        "VALIDATION_ERROR",
      );
      assertError(
        await call(module, "PATCH", `/organizations/${id}`, {
          token: owner.token,
          body: { logoUrl: "ftp://example.com/a.png" },
        }),
        400,
        "VALIDATION_ERROR",
      );
      const other = await createOrganization(module, owner);
      assertError(
        await call(module, "PATCH", `/organizations/${id}`, {
          token: owner.token,
          body: { slug: other.slug },
        }),
        409,
        "SLUG_TAKEN",
      );
    });

    it("soft-deletes: row kept with deletedAt, pending invitations canceled, gone from every read and write and every active pointer", async () => {
      const owner = await newUser(module);
      const member = await newUser(module);
      const invitee = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const membership = await addMember(module, owner, id, member);
      await call(module, "POST", "/organizations/active", {
        token: member.token,
        body: { organizationId: id },
      });
      const invitation = await invite(module, owner, id, invitee.user.email);
      assert.equal(
        (await call(module, "DELETE", `/organizations/${id}`, { token: owner.token })).status,
        204,
      );

      const [row] = await db.query<{ deleted_at: Date | null }>(
        "SELECT deleted_at FROM auth.organizations WHERE id = $1",
        [id],
      );
      assert.ok(row.deleted_at instanceof Date, "row kept, deleted_at set");
      const [inv] = await db.query<{ status: string }>(
        "SELECT status FROM auth.invitations WHERE id = $1",
        [invitation.id],
      );
      assert.equal(inv.status, "canceled");
      const pointers = await db.query(
        "SELECT id FROM auth.sessions WHERE active_organization_id = $1",
        [id],
      );
      assert.equal(pointers.length, 0);

      const requests: [string, string, unknown?][] = [
        ["GET", `/organizations/${id}`],
        ["PATCH", `/organizations/${id}`, { name: "Zombie" }],
        ["DELETE", `/organizations/${id}`],
        ["GET", `/organizations/${id}/members`],
        ["POST", `/organizations/${id}/members`, { userId: invitee.user.id }],
        ["PATCH", `/organizations/${id}/members/${membership.id}`, { roles: ["admin"] }],
        ["DELETE", `/organizations/${id}/members/${membership.id}`],
        ["GET", `/organizations/${id}/invitations`],
        ["POST", `/organizations/${id}/invitations`, { email: "late@example.com" }],
        ["POST", "/organizations/active", { organizationId: id }],
      ];
      for (const [method, path, body] of requests) {
        assertError(
          await call(module, method, path, { token: owner.token, body }),
          404,
          "NOT_FOUND",
        );
      }
      const accept = await call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
        token: invitee.token,
        body: { action: "accept", token: invitation.token },
      });
      assertError(accept, 404, "NOT_FOUND");
      for (const user of [owner, member]) {
        const me = await call(module, "GET", "/me", { token: user.token });
        assert.ok(!me.body.organizations.some((e: any) => e.organization.id === id));
        assert.equal(me.body.activeOrganization, null);
        const active = await call(module, "GET", "/organizations/active", { token: user.token });
        assert.equal(active.body, null);
      }
      const invitations = await call(module, "GET", "/organizations/invitations", {
        token: invitee.token,
      });
      assert.deepEqual(invitations.body.invitations, []);
    });
  });

  describe(`${name}: active organization`, () => {
    it("is set per credential: another session of the same user keeps its own", async () => {
      const user = await newUser(module, "two-sessions");
      const a = await createOrganization(module, user);
      const b = await createOrganization(module, user);
      const second = await call(module, "POST", "/sign-in", {
        body: { email: user.user.email, password: "correct horse battery" },
      });
      const secondToken: string = second.body.token;
      assert.equal(
        (await call(module, "GET", "/organizations/active", { token: secondToken })).body,
        null,
      );
      const set = await call(module, "POST", "/organizations/active", {
        token: secondToken,
        body: { organizationId: b.id },
      });
      assert.equal(set.status, 200);
      assert.equal(set.body.organization.id, b.id);
      assert.deepEqual(set.body.member.roles, ["owner"]);
      const first = await call(module, "GET", "/organizations/active", { token: user.token });
      assert.equal(first.body.organization.id, a.id);
      const secondNow = await call(module, "GET", "/organizations/active", { token: secondToken });
      assert.equal(secondNow.body.organization.id, b.id);
      const meFirst = await call(module, "GET", "/me", { token: user.token });
      assert.equal(meFirst.body.activeOrganization.organization.id, a.id);
      const cleared = await call(module, "POST", "/organizations/active", {
        token: secondToken,
        body: { organizationId: null },
      });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body, null);
      assert.equal(
        (await call(module, "GET", "/organizations/active", { token: secondToken })).body,
        null,
      );
      assert.equal(
        (await call(module, "GET", "/organizations/active", { token: user.token })).body
          .organization.id,
        a.id,
      );
      assertError(
        await call(module, "POST", "/organizations/active", {
          token: user.token,
          body: { organizationId: "not-a-uuid" },
        }),
        404,
        "NOT_FOUND",
      );
    });

    it("reads null once the member was removed from the active organization", async () => {
      const owner = await newUser(module);
      const member = await newUser(module);
      const { id } = await createOrganization(module, owner);
      const membership = await addMember(module, owner, id, member);
      await call(module, "POST", "/organizations/active", {
        token: member.token,
        body: { organizationId: id },
      });
      await call(module, "DELETE", `/organizations/${id}/members/${membership.id}`, {
        token: owner.token,
      });
      assert.equal(
        (await call(module, "GET", "/organizations/active", { token: member.token })).body,
        null,
      );
      assert.equal(
        (await call(module, "GET", "/me", { token: member.token })).body.activeOrganization,
        null,
      );
    });
  });

  describe(`${name}: GET /me`, () => {
    // The adapter also counts what runs beside the request (the hook worker's polls, the
    // coalesced wake-up NOTIFY after earlier writes): those only add, so the fewest statements
    // over a few identical requests is the request's own count.
    async function meQueries(user: TestUser): Promise<{ body: any; queries: number }> {
      let fewest = Infinity;
      let body: any;
      for (let attempt = 0; attempt < 3; attempt++) {
        const before = db.stats.queries;
        const result = await call(module, "GET", "/me", { token: user.token });
        assert.equal(result.status, 200);
        fewest = Math.min(fewest, db.stats.queries - before);
        body = result.body;
      }
      return { body, queries: fewest };
    }

    it("carries the entries, the active entry and pending invitations without tokens, in a fixed number of queries", async () => {
      const user = await newUser(module, "me");
      const few = await meQueries(user);
      assert.deepEqual(few.body.organizations, []);
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await createOrganization(module, user)).id);
      const inviter = await newUser(module);
      const other = await createOrganization(module, inviter);
      const invitation = await invite(module, inviter, other.id, user.user.email);
      const many = await meQueries(user);
      assert.equal(many.queries, few.queries, "no query per organization");
      assert.deepEqual(many.body.organizations.map((e: any) => e.organization.id), ids);
      assert.equal(many.body.activeOrganization.organization.id, ids[0]);
      assert.deepEqual(many.body.activeOrganization, many.body.organizations[0]);
      assert.equal(many.body.invitations.length, 1);
      const entry = many.body.invitations[0];
      assert.deepEqual(Object.keys(entry).sort(), ["invitation", "organization"]);
      assert.equal(entry.invitation.id, invitation.id);
      assert.equal(entry.organization.id, other.id);
      assert.ok(!("token" in entry.invitation), "no token in /me");
      assert.ok(!JSON.stringify(many.body).includes(invitation.token));
    });

    it("lists the same entries as GET /organizations (its JSON is written as read)", async () => {
      const user = await newUser(module, "me-json");
      await createOrganization(module, user, {
        name: 'Quote " backslash \\ tab \t line\u2028 emoji 😀',
        logoUrl: 'https://example.com/logo.png?a="b"&c=\\',
        metadata: {
          plan: "pro",
          seats: 3,
          nested: { ok: true, list: [1, 2.5, -0.001, null, "x"] },
          note: 'é ✓ \u0001 "',
          big: 12345678901234567890,
          "2": "integer-like key",
          empty: {},
        },
      });
      await createOrganization(module, user, { metadata: [] });
      await createOrganization(module, user);
      const me = await call(module, "GET", "/me", { token: user.token });
      const listed = await call(module, "GET", "/organizations?pageSize=100", {
        token: user.token,
      });
      assert.equal(me.status, 200);
      assert.equal(me.body.organizations.length, 3);
      // Compared as text: same values and the same key order.
      assert.equal(
        JSON.stringify(me.body.organizations),
        JSON.stringify(listed.body.organizations),
      );
    });
  });

  describe(`${name}: ids`, () => {
    it("answers 404 for malformed and unknown organization ids (no probing)", async () => {
      const user = await newUser(module);
      for (const id of ["not-a-uuid", crypto.randomUUID(), "active%20x"]) {
        assertError(
          await call(module, "GET", `/organizations/${id}`, { token: user.token }),
          404,
          "NOT_FOUND",
        );
        assertError(
          await call(module, "GET", `/organizations/${id}/members`, { token: user.token }),
          404,
          "NOT_FOUND",
        );
      }
    });
  });
});
