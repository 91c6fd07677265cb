// deno-lint-ignore-file no-explicit-any
// GET /me keeps a user's organization entries and pending invitations between requests and reuses
// them only while the database still holds the rows they came from: every change made elsewhere
// (another module instance, as another process would; plain SQL; an invitation expiring) shows in
// the next answer, on PGlite and PostgreSQL. The bound on what is kept is checked through the
// validator the reader sends.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { meEntriesReader } from "../../src/auth/me/organization_entries.ts";
import { authTableNames } from "../../src/auth/tables.ts";
import { permissionModel } from "../../src/auth/organizations/permissions.ts";
import type { SqlAdapter, SqlQuerier } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { call } from "./helpers/http.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  invite,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  // Two instances on one database, each with its own kept entries: `reader` answers /me, and
  // `writer` makes the changes, as another process serving the same database would.
  let reader: AuthModule;
  let writer: AuthModule;

  before(async () => {
    db = getAdapter();
    reader = await organizationsModule(db, { organizations: DIRECT_ADD });
    writer = await organizationsModule(db, { organizations: DIRECT_ADD });
  });

  async function me(module: AuthModule, user: TestUser): Promise<{ text: string; body: any }> {
    const result = await call(module, "GET", "/me", { token: user.token });
    assert.equal(result.status, 200);
    return { text: JSON.stringify(result.body), body: result.body };
  }

  /** `reader`'s answer, after it has answered once already, is what a fresh instance answers. */
  async function assertCurrent(user: TestUser): Promise<any> {
    const kept = await me(reader, user);
    const fresh = await me(await organizationsModule(db), user);
    assert.equal(kept.text, fresh.text);
    return kept.body;
  }

  /**
   * Moves an invitation's expiry to a moment ahead on the database's clock and has `reader` keep
   * an answer listing `listed` invitations (it included) before that moment, then waits the rest
   * of it (a few milliseconds): a slow read retries with a longer moment.
   */
  async function expiresSoonAfterKept(user: TestUser, invitationId: string, listed: number) {
    for (let aheadMs = 40;; aheadMs *= 2) {
      await db.query(
        `UPDATE auth.invitations SET expires_at = now() + $2::int * interval '1 millisecond'
          WHERE id = $1`,
        [invitationId, aheadMs],
      );
      if ((await me(reader, user)).body.invitations.length === listed) break;
      assert.ok(aheadMs < 10_000, "the invitation expired before every read");
    }
    const [{ ms }] = await db.query<{ ms: number }>(
      `SELECT greatest(0, extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS ms
         FROM auth.invitations WHERE id = $1`,
      [invitationId],
    );
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(ms) + 1));
  }

  describe(`${name}: GET /me parts kept between requests`, () => {
    it("answers the same text again, in as many queries as the first time", async () => {
      const user = await newUser(reader, "kept");
      for (let i = 0; i < 3; i++) await createOrganization(reader, user);
      // The adapter also counts what runs beside a request (the hook worker's polls): those only
      // add, so the fewest over a few requests is a request's own count.
      const queries = async (module: AuthModule) => {
        const before = db.stats.queries;
        const { text } = await me(module, user);
        return { text, queries: db.stats.queries - before };
      };
      const firsts = [];
      for (let i = 0; i < 3; i++) firsts.push(await queries(await organizationsModule(db)));
      const agains = [];
      for (let i = 0; i < 3; i++) agains.push(await queries(reader));
      const texts = new Set([...firsts, ...agains].map((answer) => answer.text));
      assert.equal(texts.size, 1);
      assert.equal(JSON.parse([...texts][0]).organizations.length, 3);
      const fewest = (answers: { queries: number }[]) =>
        Math.min(...answers.map((answer) => answer.queries));
      assert.equal(fewest(agains), fewest(firsts));
      assert.ok(fewest(firsts) <= 3, String(fewest(firsts)));
    });

    it("shows every change made by another instance in the next answer", async () => {
      const owner = await newUser(writer, "owner");
      const user = await newUser(reader, "member");
      const first = await createOrganization(writer, owner, { name: "First" });
      const second = await createOrganization(writer, owner, { name: "Second" });
      const membership = await addMember(writer, owner, first.id, user, ["member"]);
      await addMember(writer, owner, second.id, user, ["member"]);
      let body = await assertCurrent(user);
      assert.deepEqual(body.organizations.map((e: any) => e.organization.name), [
        "First",
        "Second",
      ]);

      const renamed = await call(writer, "PATCH", `/organizations/${first.id}`, {
        token: owner.token,
        body: { name: "First, renamed", metadata: { plan: "pro" } },
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      body = await assertCurrent(user);
      assert.equal(body.organizations[0].organization.name, "First, renamed");
      assert.deepEqual(body.organizations[0].organization.metadata, { plan: "pro" });

      const promoted = await call(
        writer,
        "PATCH",
        `/organizations/${first.id}/members/${membership.id}`,
        { token: owner.token, body: { roles: ["admin"] } },
      );
      assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
      body = await assertCurrent(user);
      assert.deepEqual(body.organizations[0].member.roles, ["admin"]);

      const third = await createOrganization(writer, owner, { name: "Third" });
      await addMember(writer, owner, third.id, user);
      body = await assertCurrent(user);
      assert.equal(body.organizations.length, 3);

      const removed = await call(
        writer,
        "DELETE",
        `/organizations/${first.id}/members/${membership.id}`,
        { token: owner.token },
      );
      assert.equal(removed.status, 204, JSON.stringify(removed.body));
      body = await assertCurrent(user);
      assert.deepEqual(body.organizations.map((e: any) => e.organization.name), [
        "Second",
        "Third",
      ]);

      const deleted = await call(writer, "DELETE", `/organizations/${second.id}`, {
        token: owner.token,
      });
      assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
      body = await assertCurrent(user);
      assert.deepEqual(body.organizations.map((e: any) => e.organization.name), ["Third"]);
    });

    it("shows a change made in plain SQL, and an update to the same values changes nothing", async () => {
      const user = await newUser(reader, "sql");
      const organization = await createOrganization(reader, user, { name: "Before" });
      const tables = authTableNames("auth");
      assert.equal((await assertCurrent(user)).organizations[0].organization.name, "Before");
      await db.query(`UPDATE ${tables.organizations} SET name = 'After' WHERE id = $1`, [
        organization.id,
      ]);
      assert.equal((await assertCurrent(user)).organizations[0].organization.name, "After");
      await db.query(`UPDATE ${tables.members} SET roles = roles WHERE user_id = $1`, [
        user.user.id,
      ]);
      assert.equal((await assertCurrent(user)).organizations[0].organization.name, "After");
      await db.query(`DELETE FROM ${tables.members} WHERE user_id = $1`, [user.user.id]);
      const body = await assertCurrent(user);
      assert.deepEqual(body.organizations, []);
      assert.equal(body.activeOrganization, null);
    });

    it("shows invitations sent, answered and expired since the last answer", async () => {
      const inviter = await newUser(writer, "inviter");
      const user = await newUser(reader, "invited");
      const first = await createOrganization(writer, inviter, { name: "Inviting" });
      const second = await createOrganization(writer, inviter, { name: "Also inviting" });
      assert.deepEqual((await assertCurrent(user)).invitations, []);
      const invitation = await invite(writer, inviter, first.id, user.user.email);
      await invite(writer, inviter, second.id, user.user.email);
      let body = await assertCurrent(user);
      assert.deepEqual(body.invitations.map((e: any) => e.organization.name), [
        "Inviting",
        "Also inviting",
      ]);
      const renamed = await call(writer, "PATCH", `/organizations/${second.id}`, {
        token: inviter.token,
        body: { name: "Renamed inviter" },
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      body = await assertCurrent(user);
      assert.equal(body.invitations[1].organization.name, "Renamed inviter");
      const rejected = await call(writer, "PATCH", `/organizations/invitations/${invitation.id}`, {
        token: user.token,
        body: { action: "reject", token: invitation.token },
      });
      assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
      body = await assertCurrent(user);
      assert.deepEqual(body.invitations.map((e: any) => e.organization.name), [
        "Renamed inviter",
      ]);

      // Nothing is written when an invitation expires: the time alone takes it out. Its expiry is
      // written a moment ahead (on the database's clock, which decides expiry) before `reader`
      // keeps the answer listing it; nothing is written after, until that moment has passed.
      const third = await createOrganization(writer, inviter, { name: "Hurried" });
      const hurried = await invite(writer, inviter, third.id, user.user.email);
      await expiresSoonAfterKept(user, hurried.id, 2);
      body = await assertCurrent(user);
      assert.deepEqual(body.invitations.map((e: any) => e.organization.name), [
        "Renamed inviter",
      ]);
    });

    it("keeps no more than its bound, least recently used out first", async () => {
      const tables = authTableNames("auth");
      const a = await newUser(reader, "bound-a");
      const b = await newUser(reader, "bound-b");
      const big = await newUser(reader, "bound-big");
      await createOrganization(reader, a);
      await createOrganization(reader, b);
      for (let i = 0; i < 3; i++) await createOrganization(reader, big);
      // What the reader holds shows in the validator it sends ($2): null when it holds nothing.
      const sent: Array<unknown> = [];
      const recording: SqlQuerier = {
        query: (sql, params) => {
          sent.push(params?.[1] ?? null);
          return db.query(sql, params);
        },
      };
      const permissions = permissionModel(["owner", "admin", "member"], undefined);
      const oneEntry = (await meEntriesReader(db, tables, permissions).read(a.user.id)).listJson
        .length;
      // Room for one user of one entry (kept as its entry, the joined list and the validator).
      const bounded = meEntriesReader(recording, tables, permissions, 2 * oneEntry + 100);
      const held = async (user: TestUser) => {
        await bounded.read(user.user.id);
        return sent.at(-1) !== null;
      };
      assert.equal(await held(a), false);
      assert.equal(await held(a), true);
      assert.equal(await held(b), false, "b was never read");
      assert.equal(await held(a), false, "a made room for b");
      assert.equal(await held(big), false);
      assert.equal(await held(big), false, "too big to keep");
      assert.equal(await held(a), true, "the one too big evicted nothing");
    });
  });
});
