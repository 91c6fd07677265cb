// Runs the code examples of docs/database.md; importing them also makes `deno test` type-check them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { authSchema, greeting, newUser } from "../../docs/examples/database_schema.ts";
import {
  fullPlan,
  secondInstance,
  sqlFile,
  step2,
  upgrade,
} from "../../docs/examples/database_planning.ts";
import {
  drizzleSource,
  prismaModelsOnly,
  prismaSource,
} from "../../docs/examples/database_orm_outputs.ts";

describe("docs/examples (database)", () => {
  it("database_schema.ts defines 15 versions and typed rows", () => {
    assert.equal(authSchema.version, 15);
    assert.deepEqual(newUser, { email: "ada@example.com" });
    const user = {
      id: "x",
      email: "ada@example.com",
      role: "admin",
      created_at: new Date("2024-05-01T00:00:00Z"),
      name: null,
    };
    assert.equal(greeting(user), "Hello ada@example.com (admin), member since 2024");
  });

  it("database_planning.ts plans full, namespaced and partial migrations", () => {
    assert.equal(fullPlan.steps.length, 15);
    assert.equal(secondInstance.steps[0].statements[0], 'CREATE SCHEMA IF NOT EXISTS "auth_admin"');
    assert.deepEqual(upgrade.steps.map((s) => s.version)[0], 4);
    assert.match(sqlFile, /-- Step 15: sql\nCOMMENT ON TABLE "auth"."users"/);
    assert.match(step2[0], /^CREATE TABLE "auth"."sessions"/);
  });

  it("database_orm_outputs.ts writes both namespaces", () => {
    assert.match(drizzleSource, /export const authAdminSchema = pgSchema\("auth_admin"\);/);
    assert.match(prismaSource, /model Users_auth_admin \{/);
    assert.doesNotMatch(prismaModelsOnly, /generator client/);
  });
});
