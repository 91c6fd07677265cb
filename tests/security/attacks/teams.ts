// deno-lint-ignore-file no-explicit-any
// Organizations for teams (issue 32), over a served module: a member climbing their own roles,
// an admin taking ownership, a custom role hammering every built-in action at once, reading
// another organization's audit log, and tokens in the audit log. See docs/organizations.md
// ("Permissions", "Audit log").
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type AuthTarget, request as send, serveAuth } from "../harness.ts";

interface Client {
  token: string;
  user: { id: string; email: string };
}

let emails = 0;

async function request(
  target: AuthTarget,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
  const answer = await send(target, method, path, { token, body });
  return { status: answer.status, body: answer.body as any };
}

async function signUp(target: AuthTarget, label: string): Promise<Client> {
  const email = `${label}-${++emails}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const result = await request(target, "POST", "/sign-up", undefined, {
    email,
    password: "correct horse battery",
  });
  assert.equal(result.status, 200, JSON.stringify(result.body));
  await target.db.query(
    `UPDATE "${target.namespace}"."users" SET email_verified_at = now() WHERE id = $1`,
    [result.body.user.id],
  );
  return { token: result.body.token, user: result.body.user };
}

describe("attack: organizations for teams (issue 32)", () => {
  let target: AuthTarget;
  let owner: Client;
  let organizationId: string;
  before(async () => {
    target = await serveAuth({
      organizations: {
        roles: ["owner", "admin", "member", "billing", "support"],
        permissions: { billing: ["invoice:read"], support: ["member:update"] },
      },
    });
    owner = await signUp(target, "owner");
    const created = await request(target, "POST", "/organizations", owner.token, {
      name: "Teams",
      slug: `teams-${crypto.randomUUID().slice(0, 12)}`,
    });
    organizationId = created.body.organization.id;
  });
  after(() => target.close());

  async function join(
    label: string,
    roles: string[],
  ): Promise<{ client: Client; memberId: string }> {
    const client = await signUp(target, label);
    const member = await target.module.api.addMember({
      organizationId,
      userId: client.user.id,
      roles,
    });
    return { client, memberId: member.id };
  }

  async function state(): Promise<string> {
    const rows = await target.db.query(
      `SELECT m.id, m.roles, o.name, o.deleted_at,
         (SELECT count(*) FROM "${target.namespace}"."invitations" i WHERE i.organization_id = o.id) AS invitations,
         (SELECT count(*) FROM "${target.namespace}"."organization_audit_log" a WHERE a.organization_id = o.id) AS entries
       FROM "${target.namespace}"."members" m JOIN "${target.namespace}"."organizations" o ON o.id = m.organization_id
       WHERE o.id = $1 ORDER BY m.id`,
      [organizationId],
    );
    return JSON.stringify(rows);
  }

  it("a support member (member:update) cannot climb: not to admin, not to owner, not by transfer", async () => {
    const { client, memberId } = await join("climber", ["support"]);
    const before = await state();
    const attempts = await Promise.all([
      request(
        target,
        "PATCH",
        `/organizations/${organizationId}/members/${memberId}`,
        client.token,
        {
          roles: ["support", "admin"],
        },
      ),
      request(
        target,
        "PATCH",
        `/organizations/${organizationId}/members/${memberId}`,
        client.token,
        {
          roles: ["owner"],
        },
      ),
      request(
        target,
        "PATCH",
        `/organizations/${organizationId}/members/${memberId}`,
        client.token,
        {
          roles: ["support", "billing"],
        },
      ),
      request(target, "POST", `/organizations/${organizationId}/transfer-ownership`, client.token, {
        memberId,
      }),
    ]);
    assert.deepEqual(attempts.map((a) => a.status), [403, 403, 403, 403]);
    assert.equal(await state(), before, "nothing changed, no audit entry");
  });

  it("an admin can neither take ownership nor grant owner", async () => {
    const { client, memberId } = await join("admin", ["admin"]);
    const before = await state();
    const attempts = await Promise.all([
      request(target, "POST", `/organizations/${organizationId}/transfer-ownership`, client.token, {
        memberId,
      }),
      request(
        target,
        "PATCH",
        `/organizations/${organizationId}/members/${memberId}`,
        client.token,
        {
          roles: ["owner"],
        },
      ),
      request(target, "POST", `/organizations/${organizationId}/invitations`, client.token, {
        email: "accomplice@example.com",
        roles: ["owner"],
      }),
    ]);
    assert.deepEqual(attempts.map((a) => a.status), [403, 403, 403]);
    assert.equal(await state(), before);
  });

  it("a billing member firing every built-in action 10 times at once: all 403, nothing changed", async () => {
    const { client } = await join("billing", ["billing"]);
    const { memberId: victim } = await join("victim", ["member"]);
    const base = `/organizations/${organizationId}`;
    const before = await state();
    const actions: Array<[string, string, unknown?]> = [
      ["PATCH", base, { name: "Owned" }],
      ["DELETE", base],
      ["POST", `${base}/members`, { userId: client.user.id }],
      ["PATCH", `${base}/members/${victim}`, { roles: ["billing"] }],
      ["DELETE", `${base}/members/${victim}`],
      ["POST", `${base}/invitations`, { email: "x@example.com" }],
      ["GET", `${base}/invitations`],
      ["GET", `${base}/audit-log`],
      ["POST", `${base}/transfer-ownership`, { memberId: victim }],
    ];
    const results = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          actions.map(([method, path, body]) => request(target, method, path, client.token, body)),
      ).flat(),
    );
    assert.deepEqual(
      new Set(results.map((r) => `${r.status} ${r.body?.error?.code}`)),
      new Set(["403 FORBIDDEN"]),
    );
    assert.equal(await state(), before);
  });

  it("another organization's audit log is 404, whatever the id; the log holds no token", async () => {
    const outsider = await signUp(target, "outsider");
    const own = await request(target, "POST", "/organizations", outsider.token, {
      name: "Elsewhere",
      slug: `elsewhere-${crypto.randomUUID().slice(0, 12)}`,
    });
    const invitation = await request(
      target,
      "POST",
      `/organizations/${organizationId}/invitations`,
      owner.token,
      {
        email: "secret-holder@example.com",
      },
    );
    assert.equal(invitation.status, 201);
    for (const id of [organizationId, crypto.randomUUID(), "../audit-log", "%00"]) {
      const answer = await request(target, "GET", `/organizations/${id}/audit-log`, outsider.token);
      assert.equal(answer.status, 404, `${id}: ${JSON.stringify(answer.body)}`);
    }
    const ownLog = await request(
      target,
      "GET",
      `/organizations/${own.body.organization.id}/audit-log`,
      outsider.token,
    );
    assert.equal(ownLog.status, 200);
    assert.ok(ownLog.body.entries.every((e: any) => e.target.id === own.body.organization.id));
    const dump = JSON.stringify(
      await target.db.query(`SELECT * FROM "${target.namespace}"."organization_audit_log"`),
    );
    for (const token of [invitation.body.invitation.token, owner.token, outsider.token]) {
      assert.ok(!dump.includes(token), "no token in the audit log");
    }
  });
});
