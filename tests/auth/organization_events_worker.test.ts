// The auth module embedded by its fetch alone: its requests start the worker delivering the
// organization events (no serve(), no background.start(), no drain()), and close() stops it.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { pgliteAdapter } from "../../src/sql/mod.ts";
import {
  createOrganization,
  DIRECT_ADD,
  newUser,
  organizationsModule,
} from "./helpers/organizations.ts";

const db = pgliteAdapter();
after(async () => {
  await db.close();
});

describe("auth embedded by its fetch alone", () => {
  it("delivers an organization event with no other call, and close() stops the worker", {
    timeout: 60_000,
  }, async () => {
    const created: string[] = [];
    const module = await organizationsModule(db, {
      autoStart: true,
      organizations: {
        ...DIRECT_ADD,
        hooks: {
          organizationCreated: ({ organization }) => {
            created.push(organization.id);
          },
        },
      },
    });
    assert.equal(module.background?.running, false, "nothing runs before the first request");
    const owner = await newUser(module);
    const { id } = await createOrganization(module, owner);
    const deadline = Date.now() + 30_000;
    while (created.length === 0) {
      if (Date.now() > deadline) assert.fail("the organizationCreated event was not delivered");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(created, [id]);
    assert.equal(module.background?.running, true);
    await module.close();
    assert.equal(module.background?.running, false);
  });
});
