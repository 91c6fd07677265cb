// `organizations.retention`: the worker delivering the organization events purges the delivered
// ones once they are older than the retention, like the messenger's and durableHooks()'s, and
// keeps the undelivered ones; without it every occurrence is kept. Through the real module.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import type { HookOccurrence } from "../../src/hooks/mod.ts";
import { pgliteAdapter } from "../../src/sql/mod.ts";
import { call } from "./helpers/http.ts";
import {
  createOrganization,
  newUser,
  organizationsModule,
  type TestUser,
} from "./helpers/organizations.ts";

const db = pgliteAdapter();
after(async () => {
  await db.close();
});

/** Every event occurrence of the module's namespace, oldest first. */
async function occurrences(module: AuthModule): Promise<HookOccurrence[]> {
  const page = await module.api.hooks!.list({ pageSize: 100 });
  assert.equal(page.hasNextPage, false);
  return page.occurrences;
}

async function renameOrganization(
  module: AuthModule,
  owner: TestUser,
  id: string,
): Promise<void> {
  const result = await call(module, "PATCH", `/organizations/${id}`, {
    token: owner.token,
    body: { name: "Renamed" },
  });
  assert.equal(result.status, 200, JSON.stringify(result.body));
}

describe("organizations.retention", () => {
  it("purges delivered organization events after the retention, never undelivered ones", async () => {
    const namespace = "auth_retention";
    const delivered: string[] = [];
    const handlers = {
      organizationCreated: ({ organization }: { organization: { id: string } }) => {
        delivered.push(organization.id);
      },
      organizationUpdated: () => {
        throw new Error("the mail server is down");
      },
    };
    // Without a retention, and with one longer than their age, done events are kept.
    const keeping = await organizationsModule(db, {
      namespace,
      organizations: { hooks: handlers },
    });
    const owner = await newUser(keeping);
    const first = await createOrganization(keeping, owner);
    await keeping.api.hooks!.drain();
    assert.deepEqual(delivered, [first.id]);
    const kept = (await occurrences(keeping)).filter((o) => o.name === "organizationCreated");
    assert.deepEqual(kept.map((o) => o.status), ["done"]);
    await keeping.close();

    const young = await organizationsModule(db, {
      namespace,
      organizations: { hooks: handlers, retention: { done: "1d" } },
    });
    await young.api.hooks!.drain();
    assert.deepEqual(
      (await occurrences(young)).map((o) => [o.name, o.status]),
      [["organizationCreated", "done"]],
      "younger than the retention: kept",
    );
    await young.close();

    // A retention of 0s: the next drain (and the worker) deletes every done event occurrence.
    const purging = await organizationsModule(db, {
      namespace,
      organizations: { hooks: handlers, retention: { done: "0s" } },
    });
    const second = await createOrganization(purging, owner);
    await renameOrganization(purging, owner, second.id);
    await purging.api.hooks!.drain();
    assert.deepEqual(delivered, [first.id, second.id], "delivered before being purged");
    const left = await occurrences(purging);
    assert.deepEqual(
      left.map((o) => [o.name, o.status, o.attempts]),
      [["organizationUpdated", "pending", 1]],
      "the done events are gone; the one waiting for a retry stays",
    );
    assert.match(left[0].lastError ?? "", /the mail server is down/);
    await purging.close();
  });
});
