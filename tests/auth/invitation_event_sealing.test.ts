// deno-lint-ignore-file no-explicit-any
// The invitationCreated event keeps its token sealed in the hook table (AES-256-GCM under a key
// from the deployment's secret) and hands it to the handler in plain text; a token sealed under
// another key is never lost silently: the invitation gets a new token and a new event. Plus the
// sealing primitive itself.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSealer } from "../../src/auth/organizations/sealing.ts";
import type { OrganizationEventPayloads } from "../../src/auth/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, uniqueEmail } from "./helpers/http.ts";
import { createOrganization, newUser, organizationsModule } from "./helpers/organizations.ts";

const SECRET_A = "a-secret-of-at-least-32-characters-aaaa";
const SECRET_B = "b-secret-of-at-least-32-characters-bbbb";

describe("createSealer", () => {
  it("opens what it sealed, for the same context and key only", () => {
    const sealer = createSealer(SECRET_A, "test");
    const sealed = sealer.seal("the token", "id-1");
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes("the token"));
    assert.notEqual(sealer.seal("the token", "id-1"), sealed, "a fresh IV each time");
    assert.equal(sealer.open(sealed, "id-1"), "the token");
    assert.equal(createSealer(SECRET_A, "test").open(sealed, "id-1"), "the token", "same secret");
    assert.equal(sealer.open(sealed, "id-2"), null, "bound to its context");
    assert.equal(createSealer(SECRET_B, "test").open(sealed, "id-1"), null, "another secret");
    assert.equal(createSealer(SECRET_A, "other").open(sealed, "id-1"), null, "another purpose");
    assert.equal(createSealer(null, "test").open(sealed, "id-1"), null, "a random key");
    const [v, iv, body] = sealed.split(".");
    const flipped = `${body.slice(0, -2)}${body.at(-2) === "A" ? "B" : "A"}${body.at(-1)}`;
    for (const bad of [`${v}.${iv}.${flipped}`, "v2.x.y", "", "v1..", "v1.a.b.c", 42 as any]) {
      assert.equal(sealer.open(bad, "id-1"), null, String(bad));
    }
  });

  it("without a secret, seals for this instance only", () => {
    const sealer = createSealer(null, "test");
    assert.equal(sealer.open(sealer.seal("x", "c"), "c"), "x");
  });
});

forEachAdapter((name, getAdapter) => {
  describe(`${name}: invitationCreated in the hook table`, () => {
    it("stores the token sealed and hands it to the handler; another key re-issues the invitation", async () => {
      const db = getAdapter();
      const namespace = "auth_sealing";
      const deliveredA: OrganizationEventPayloads["invitationCreated"][] = [];
      const moduleA = await organizationsModule(db, {
        namespace,
        secret: SECRET_A,
        organizations: { hooks: { invitationCreated: (p) => void deliveredA.push(p) } },
      });
      const owner = await newUser(moduleA);
      const { id } = await createOrganization(moduleA, owner);
      const invitee = await newUser(moduleA);
      const created = await call(moduleA, "POST", `/organizations/${id}/invitations`, {
        token: owner.token,
        body: { email: invitee.user.email },
      });
      const token = created.body.invitation.token;
      const [stored] = await db.query<{ payload: any }>(
        `SELECT payload FROM ${namespace}.hook_occurrences WHERE name = 'invitationCreated'`,
      );
      assert.ok(!JSON.stringify(stored.payload).includes(token));
      assert.ok(!("token" in stored.payload.invitation));
      assert.match(stored.payload.sealedToken, /^v1\./);

      // Another process with another secret delivers it: it cannot open the token, so the
      // invitation gets a new one, announced by a new event it can open.
      const deliveredB: OrganizationEventPayloads["invitationCreated"][] = [];
      const moduleB = await organizationsModule(db, {
        namespace,
        secret: SECRET_B,
        organizations: { hooks: { invitationCreated: (p) => void deliveredB.push(p) } },
      });
      await moduleB.api.hooks!.drain();
      assert.equal(deliveredA.length, 0);
      assert.equal(deliveredB.length, 1);
      const reissued = deliveredB[0];
      assert.equal(reissued.invitation.id, created.body.invitation.id);
      assert.equal(reissued.rotated, true);
      assert.equal(reissued.actorUserId, owner.user.id);
      assert.match(reissued.invitation.token, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(reissued.invitation.token, token);
      const respond = (invitationToken: string) =>
        call(moduleB, "PATCH", `/organizations/invitations/${created.body.invitation.id}`, {
          token: invitee.token,
          body: { action: "accept", token: invitationToken },
        });
      assertError(await respond(token), 403, "INVALID_INVITATION_TOKEN");
      assert.equal((await respond(reissued.invitation.token)).status, 200);

      // A re-send seals its token with the sending process's key: delivered as is.
      const again = await call(moduleA, "POST", `/organizations/${id}/invitations`, {
        token: owner.token,
        body: { email: uniqueEmail("again") },
      });
      await moduleA.api.hooks!.drain();
      assert.deepEqual(deliveredA.map((p) => p.invitation.token), [again.body.invitation.token]);
    });
  });
});
