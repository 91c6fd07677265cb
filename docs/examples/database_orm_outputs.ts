// Drizzle and Prisma schema files from the same schemas. Type-checked and run by
// tests/db/docs_examples.test.ts.
import { drizzleSchemaFile, prismaSchemaFile } from "../../src/db/mod.ts";
import { authSchema } from "./database_schema.ts";

const installed = [
  { schema: authSchema }, // namespace "auth"
  { schema: authSchema, namespace: "auth_admin" }, // a second instance
];

export const drizzleSource: string = drizzleSchemaFile(installed);
export const prismaSource: string = prismaSchemaFile(installed);
// Merging into an existing Prisma setup that has its own generator block:
export const prismaModelsOnly: string = prismaSchemaFile(installed, { generator: false });
