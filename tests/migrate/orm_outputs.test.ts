// The Drizzle and Prisma outputs: byte-for-byte snapshots, validation by Prisma's own schema
// engine (@prisma/prisma-schema-wasm), and drizzle-kit generating from our Drizzle file a schema
// equal, on a real database, to what our migrations create.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, validate } from "@prisma/prisma-schema-wasm";
import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { drizzleSchemaFile, planMigration, prismaSchemaFile } from "../../src/migrate/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { everyStepSchema } from "../fixtures/every_step_schema.ts";
import { introspect } from "../fixtures/introspect.ts";

const snapshots = new URL("./__snapshots__/", import.meta.url);

/** A second module sharing the database, to check several namespaces in one file. */
const notesSchema = defineSchema("notes", (s) =>
  s.createTable("notes", {
    id: column.uuid().primaryKey().defaultRandom(),
    body: column.text(),
    meta: column.jsonb().nullable(),
  }));

function prismaErrors(text: string): string | undefined {
  try {
    validate(JSON.stringify({ prismaSchema: [["schema.prisma", text]], noColorErrors: true }));
    return undefined;
  } catch (error) {
    return String(error);
  }
}

describe("prismaSchemaFile()", () => {
  const text = prismaSchemaFile([
    { schema: everyStepSchema },
    { schema: notesSchema, namespace: "notes_b" },
  ]);

  it("matches the checked-in snapshot byte for byte", async () => {
    assert.equal(text, await readFile(new URL("every_step_schema.prisma", snapshots), "utf8"));
  });

  it("is accepted by Prisma's schema validator and already formatted", () => {
    assert.equal(prismaErrors(text), undefined);
    const formatted = format(
      text,
      JSON.stringify({
        textDocument: { uri: "file:/schema.prisma" },
        options: { tabSize: 2, insertSpaces: true },
      }),
    );
    assert.equal(formatted, text);
  });

  it("names models <Table>_<ns>, maps tables and schemas, lists namespaces and versions", () => {
    assert.match(text, /^\/\/ Namespace "shop": schema "shop" at version 17$/m);
    assert.match(text, /^\/\/ Namespace "notes_b": schema "notes" at version 1$/m);
    assert.match(text, /schemas {2}= \["shop", "notes_b"\]/);
    assert.match(
      text,
      /model OrderTags_shop \{[^}]*@@map\("order_tags"\)\n {2}@@schema\("shop"\)\n\}/,
    );
    assert.match(text, /model Notes_notes_b \{[^}]*@@schema\("notes_b"\)/);
  });

  it("is rejected by the validator when @@schema is missing (the check is real)", () => {
    assert.notEqual(prismaErrors(text.replace('  @@schema("shop")\n', "")), undefined);
  });

  it("leaves the generator out on request and still validates", () => {
    const bare = prismaSchemaFile([{ schema: notesSchema }], { generator: false });
    assert.doesNotMatch(bare, /generator/);
    assert.equal(prismaErrors(bare), undefined);
  });

  it("rejects two schemas in one namespace", () => {
    assert.throws(
      () =>
        prismaSchemaFile([{ schema: notesSchema }, {
          schema: everyStepSchema,
          namespace: "notes",
        }]),
      /Namespace "notes" is used by both schema "notes" and schema "shop"/,
    );
  });
});

describe("drizzleSchemaFile()", () => {
  it("matches the checked-in snapshot byte for byte", async () => {
    const text = drizzleSchemaFile([
      { schema: everyStepSchema },
      { schema: notesSchema, namespace: "notes_b" },
    ]);
    assert.equal(
      text,
      await readFile(new URL("every_step_schema.drizzle.ts.snap", snapshots), "utf8"),
    );
  });
});

describe("drizzleSchemaFile() through drizzle-kit", () => {
  let dir: string;
  let statements: string[];
  before(async () => {
    // The generated file must sit inside the project so that "drizzle-orm" resolves.
    dir = await mkdtemp(fileURLToPath(new URL("./.drizzle_", import.meta.url)));
    const file = `${dir}/schema.ts`;
    await writeFile(
      file,
      drizzleSchemaFile([{ schema: everyStepSchema, namespace: "shop_drizzle" }]),
    );
    const module = await import(pathToFileURL(file).href);
    assert.equal(module.shopDrizzleSchemaVersion, 17);
    statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson(module));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  forEachAdapter((name, getAdapter) => {
    it(`${name}: drizzle-kit's SQL creates the same tables, columns, types, nullability, defaults, indexes and constraints as our migrations`, async () => {
      const db = getAdapter();
      await db.transaction(async (tx) => {
        for (const statement of statements) await tx.query(statement);
      });
      const plan = planMigration(everyStepSchema, { from: 0, namespace: "shop_ours" });
      await db.transaction(async (tx) => {
        for (const step of plan.steps) {
          for (const statement of step.statements) await tx.query(statement);
        }
      });
      const ours = await introspect(db, "shop_ours");
      const theirs = await introspect(db, "shop_drizzle");
      assert.ok(
        ours.columns.length === 20 && ours.indexes.length === 6 && ours.constraints.length === 8,
      );
      assert.deepEqual(theirs.columns, ours.columns);
      assert.deepEqual(theirs.indexes, ours.indexes);
      assert.deepEqual(theirs.constraints, ours.constraints);
    });
  });
});
