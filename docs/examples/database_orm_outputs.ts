// Drizzle and Prisma schema files from the same schemas (docs/database.md). A program that checks
// what it shows: `deno run -A docs/examples/database_orm_outputs.ts` (or `node …`, `bun …`).
import assert from "node:assert/strict";
import { drizzleSchemaFile, prismaSchemaFile } from "@app/fragment-cli/migrate";
import { authSchema } from "./database_schema.ts";

const installed = [
  { schema: authSchema }, // namespace "auth"
  { schema: authSchema, namespace: "auth_admin" }, // a second instance
];

const drizzleSource: string = drizzleSchemaFile(installed);
const prismaSource: string = prismaSchemaFile(installed);
// Merging into an existing Prisma setup that has its own generator block:
const prismaModelsOnly: string = prismaSchemaFile(installed, { generator: false });

assert.match(drizzleSource, /export const authAdminSchema = pgSchema\("auth_admin"\);/);
assert.match(prismaSource, /model Users_auth_admin \{/);
assert.match(prismaSource, /generator client/);
assert.doesNotMatch(prismaModelsOnly, /generator client/);
