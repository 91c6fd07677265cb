// Point 6 of the reliability issue: authorization rules hold under concurrency, across two serve
// processes on one PostgreSQL database (no in-process lock can help): 50 concurrent demotions or
// departures leave exactly one owner; 50 concurrent answers to one invitation move it once;
// a signed-out credential or a removed membership is refused on the very next request, on
// either process. The same suite runs again with both processes behind PgBouncer in transaction
// mode (issue 30), when one answers on 127.0.0.1:6432 (`.ci/pgbouncer.sh`).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { AuthClient, type SignedUp } from "../helpers/auth_client.ts";
import { type Outcome, runPool } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { type ServeChild, startServe } from "../helpers/serve_process.ts";
import { migrateSystem, newWebhookSecret, SYSTEM_APP, systemEnv } from "../helpers/system.ts";
import { noPooler, pooledUrl } from "../../helpers/pooler.ts";

const CONCURRENT = 50;
const slow = { timeout: 600_000 };

const skipPooler = await noPooler();

for (const via of ["direct", "pooler"] as const) {
  describe(`authorization under concurrency (two serve processes, ${via})`, {
    // Through PgBouncer this suite failed (7 of 8 cases: a just-signed-up user not found, a fresh
    // credential answered 401) until the postgres.js adapter stopped preparing the driver's own
    // `commit` behind a pooler: transactions reported success and were rolled back (issue 30).
    skip: via === "pooler" ? skipPooler : undefined,
  }, () => suite(via));
}

function suite(via: "direct" | "pooler"): void {
  const log = new OutputLog();
  const client = new AuthClient(log);
  const secret = newWebhookSecret(log);
  let database: TestDatabase;
  let db: SqlAdapter;
  let servers: ServeChild[] = [];
  /** Server i % 2: spreads requests over both processes. */
  const on = (i: number): string => servers[i % 2].url;

  async function organization(owner: SignedUp): Promise<string> {
    const result = await client.call(on(0), "POST", "/organizations", owner.token, {
      name: "Concurrency",
      slug: `c-${crypto.randomUUID().slice(0, 12)}`,
    });
    assert.equal(result.status, 201, result.text);
    return result.body.organization.id;
  }

  async function addMember(
    owner: SignedUp,
    organizationId: string,
    user: SignedUp,
    roles: string[],
  ): Promise<string> {
    const result = await client.call(
      on(1),
      "POST",
      `/organizations/${organizationId}/members`,
      owner.token,
      { userId: user.user.id, roles },
    );
    assert.equal(result.status, 201, result.text);
    return result.body.member.id;
  }

  async function owners(organizationId: string): Promise<string[]> {
    const rows = await db.query<{ user_id: string }>(
      `SELECT user_id::text FROM auth.members
       WHERE organization_id = $1 AND roles @> '["owner"]'::jsonb ORDER BY user_id`,
      [organizationId],
    );
    return rows.map((r) => r.user_id);
  }

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
    await migrateSystem(database.url, log, secret);
    const env = systemEnv(via === "pooler" ? pooledUrl(database.url) : database.url, secret);
    servers = await Promise.all(
      ["serve A", "serve B"].map((label) => startServe({ app: SYSTEM_APP, env, log, label })),
    );
  }, slow);

  after(async () => {
    // Teardown only (graceful shutdown is not under test here), within any runner's hook limit.
    await Promise.all(servers.map((s) => s.kill("SIGKILL")));
    await db?.close();
    await database?.drop();
  }, slow);

  it(
    "last owner: 50 owners demote themselves or leave at once → exactly one stays",
    slow,
    async () => {
      const users = await runPool(
        Array.from({ length: CONCURRENT }),
        8,
        (_, i) => client.signUp(on(i), "owner"),
      );
      const organizationId = await organization(users[0]);
      const [creator] = (await client.call(
        on(0),
        "GET",
        `/organizations/${organizationId}/members`,
        users[0].token,
      )).body.members;
      const memberIds = [creator.id];
      for (const user of users.slice(1)) {
        memberIds.push(await addMember(users[0], organizationId, user, ["owner"]));
      }
      assert.equal((await owners(organizationId)).length, CONCURRENT);

      // Even indexes demote themselves to member, odd ones leave.
      const results: Outcome[] = await runPool(
        users,
        CONCURRENT,
        (user, i) =>
          i % 2 === 0
            ? client.call(
              on(i),
              "PATCH",
              `/organizations/${organizationId}/members/${memberIds[i]}`,
              user.token,
              { roles: ["member"] },
            )
            : client.call(
              on(i),
              "DELETE",
              `/organizations/${organizationId}/members/${memberIds[i]}`,
              user.token,
            ),
      );
      const succeeded = results.filter((r) => r.status === 200 || r.status === 204);
      const refused = results.filter((r) =>
        r.status === 409 && r.body?.error?.code === "LAST_OWNER"
      );
      assert.equal(succeeded.length, CONCURRENT - 1, statusSummary(results));
      assert.equal(refused.length, 1, statusSummary(results));
      const left = await owners(organizationId);
      assert.equal(left.length, 1, "exactly one owner remains");
      const survivor = users[results.indexOf(refused[0])];
      assert.deepEqual(left, [survivor.user.id], "the refused one is the owner left");
    },
  );

  it(
    "last owner: two owners remove each other, 25 requests each → one removal wins",
    slow,
    async () => {
      const [x, y] = await Promise.all([client.signUp(on(0), "x"), client.signUp(on(1), "y")]);
      const organizationId = await organization(x);
      const xMember = (await client.call(
        on(0),
        "GET",
        `/organizations/${organizationId}/members`,
        x.token,
      )).body.members[0].id;
      const yMember = await addMember(x, organizationId, y, ["owner"]);
      const results = await runPool(
        Array.from({ length: CONCURRENT }),
        CONCURRENT,
        (_, i) =>
          i % 2 === 0
            ? client.call(
              on(i),
              "DELETE",
              `/organizations/${organizationId}/members/${yMember}`,
              x.token,
            )
            : client.call(
              on(i + 1),
              "DELETE",
              `/organizations/${organizationId}/members/${xMember}`,
              y.token,
            ),
      );
      const wins = results.flatMap((r, i) => (r.status === 204 ? [i % 2 === 0 ? x : y] : []));
      assert.deepEqual(
        results.filter((r) => r.status !== 204 && r.status !== 404).map((r) => r.text),
        [],
        "the others find the member or their own membership gone (404)",
      );
      assert.ok(wins.length >= 1 && new Set(wins).size === 1, statusSummary(results));
      assert.deepEqual(await owners(organizationId), [wins[0].user.id]);
    },
  );

  it(
    "single accept: 50 concurrent accepts of one invitation → one 200, 49 × 409",
    slow,
    async () => {
      const owner = await client.signUp(on(0), "inviter");
      const invitee = await client.signUp(on(1), "invitee");
      await client.verify(on(1), invitee);
      const organizationId = await organization(owner);
      const invited = await client.call(
        on(0),
        "POST",
        `/organizations/${organizationId}/invitations`,
        owner.token,
        { email: invitee.email },
      );
      assert.equal(invited.status, 201, invited.text);
      const invitation = invited.body.invitation;
      log.secret(invitation.token, "invitation token");
      // The invitee answers from several credentials at once.
      const tokens = [
        invitee.token,
        ...await Promise.all([1, 2, 3].map((i) => client.signIn(on(i), invitee))),
      ];
      const results = await runPool(
        Array.from({ length: CONCURRENT }),
        CONCURRENT,
        (_, i) =>
          client.call(
            on(i),
            "PATCH",
            `/organizations/invitations/${invitation.id}`,
            tokens[i % 4],
            {
              action: "accept",
              token: invitation.token,
            },
          ),
      );
      const accepted = results.filter((r) => r.status === 200);
      const conflicts = results.filter((r) =>
        r.status === 409 && r.body?.error?.code === "INVITATION_NOT_PENDING"
      );
      assert.equal(accepted.length, 1, statusSummary(results));
      assert.equal(conflicts.length, CONCURRENT - 1, statusSummary(results));
      const [{ n }] = await db.query<{ n: number }>(
        "SELECT count(*)::int4 AS n FROM auth.members WHERE organization_id = $1 AND user_id = $2",
        [organizationId, invitee.user.id],
      );
      assert.equal(n, 1, "one membership");
    },
  );

  it(
    "single answer: 25 accepts and 25 rejects of one invitation → exactly one applies",
    slow,
    async () => {
      const owner = await client.signUp(on(0), "inviter");
      const invitee = await client.signUp(on(1), "invitee");
      await client.verify(on(1), invitee);
      const organizationId = await organization(owner);
      const invited = await client.call(
        on(0),
        "POST",
        `/organizations/${organizationId}/invitations`,
        owner.token,
        { email: invitee.email },
      );
      const invitation = invited.body.invitation;
      log.secret(invitation.token, "invitation token");
      const results = await runPool(
        Array.from({ length: CONCURRENT }),
        CONCURRENT,
        (_, i) =>
          client.call(
            on(i),
            "PATCH",
            `/organizations/invitations/${invitation.id}`,
            invitee.token,
            {
              action: i % 2 === 0 ? "accept" : "reject",
              token: invitation.token,
            },
          ),
      );
      const winners = results.flatMap((
        r,
        i,
      ) => (r.status === 200 ? [i % 2 === 0 ? "accepted" : "rejected"] : []));
      assert.equal(winners.length, 1, statusSummary(results));
      assert.equal(
        results.filter((r) => r.status === 409).length,
        CONCURRENT - 1,
        statusSummary(results),
      );
      const [row] = await db.query<{ status: string; members: number }>(
        `SELECT i.status, (SELECT count(*)::int4 FROM auth.members m
         WHERE m.organization_id = i.organization_id AND m.user_id = $2) AS members
       FROM auth.invitations i WHERE i.id = $1`,
        [invitation.id, invitee.user.id],
      );
      assert.deepEqual(row, { status: winners[0], members: winners[0] === "accepted" ? 1 : 0 });
    },
  );

  it(
    "revocation: a signed-out credential is refused on the very next request, on either process",
    slow,
    async () => {
      const user = await client.signUp(on(0), "revoked");
      for (let round = 0; round < 20; round++) {
        const token = await client.signIn(on(round), user);
        const before = await client.call(on(round + 1), "GET", "/me", token);
        assert.equal(before.status, 200, before.text);
        const out = await client.call(on(round), "POST", "/sign-out", token);
        assert.equal(out.status, 204, out.text);
        const next = await client.call(on(round + 1), "GET", "/me", token);
        assert.equal(next.status, 401, `round ${round}: ${next.text}`);
      }
    },
  );

  it(
    "revocation under load: no request sent after the sign-out answered is served",
    slow,
    async () => {
      const user = await client.signUp(on(0), "busy");
      const token = await client.signIn(on(1), user);
      let signedOutAt = Infinity;
      let stop = false;
      const after: Outcome[] = [];
      const loader = runPool(Array.from({ length: 16 }), 16, async (_, worker) => {
        while (!stop) {
          const sentAt = performance.now();
          const result = await client.call(on(worker), "GET", "/me", token);
          if (sentAt > signedOutAt) after.push(result);
          if (after.length >= CONCURRENT) stop = true;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const out = await client.call(on(0), "POST", "/sign-out", token);
      assert.equal(out.status, 204, out.text);
      signedOutAt = performance.now();
      await loader;
      assert.deepEqual(after.filter((r) => r.status !== 401).map((r) => r.text), []);
    },
  );

  it(
    "removal: a removed member is refused on the very next request, on either process",
    slow,
    async () => {
      const owner = await client.signUp(on(0), "owner");
      const organizationId = await organization(owner);
      for (let round = 0; round < 10; round++) {
        const member = await client.signUp(on(round), "member");
        const memberId = await addMember(owner, organizationId, member, ["member"]);
        const seen = await client.call(
          on(round),
          "GET",
          `/organizations/${organizationId}`,
          member.token,
        );
        assert.equal(seen.status, 200, seen.text);
        const removed = await client.call(
          on(round),
          "DELETE",
          `/organizations/${organizationId}/members/${memberId}`,
          owner.token,
        );
        assert.equal(removed.status, 204, removed.text);
        const next = await client.call(
          on(round + 1),
          "GET",
          `/organizations/${organizationId}`,
          member.token,
        );
        assert.equal(next.status, 404, `round ${round}: ${next.text}`);
      }
    },
  );

  it("no password, token, invitation token or webhook secret in the servers' output", () => {
    assert.ok(log.secretCount > CONCURRENT);
    assert.deepEqual(log.leaks(), []);
  });
}

function statusSummary(results: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const r of results) {
    const key = `${r.status ?? r.error} ${r.body?.error?.code ?? ""}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return JSON.stringify(Object.fromEntries(counts));
}
