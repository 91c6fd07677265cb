/**
 * The Prisma schema file of a set of namespaced schemas.
 *
 * @module
 */

import type { OnDeleteAction } from "../schema/column.ts";
import {
  type NamespacedSchema,
  type OrmNamespace,
  ormNamespaces,
  pascalCase,
} from "./orm_model.ts";
import type { ColumnState } from "../schema/schema_state.ts";

/**
 * Options of {@linkcode prismaSchemaFile}.
 *
 * @example Models to merge into an existing Prisma schema
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { prismaSchemaFile, type PrismaSchemaFileOptions } from "@app/fragment-cli/migrate";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() }));
 * const options: PrismaSchemaFileOptions = { generator: false };
 * const models = prismaSchemaFile([{ schema: notes }], options); // no `generator client` block
 * ```
 */
export interface PrismaSchemaFileOptions {
  /**
   * The `generator client { … }` block's provider, or `false` to leave the block out (when the
   * file is merged into an existing Prisma setup).
   * @default {"prisma-client-js"}
   */
  generator?: string | false;
}

const ON_DELETE: Record<OnDeleteAction, string> = {
  "cascade": "Cascade",
  "restrict": "Restrict",
  "no action": "NoAction",
  "set null": "SetNull",
  "set default": "SetDefault",
};

function prismaString(text: string): string {
  return JSON.stringify(text);
}

function scalar(column: ColumnState): string {
  const optional = column.nullable ? "?" : "";
  switch (column.type) {
    case "text":
      return `String${optional}`;
    case "varchar":
      return `String${optional} @db.VarChar(${column.length})`;
    case "integer":
      return `Int${optional}`;
    case "bigint":
      return `BigInt${optional}`;
    case "boolean":
      return `Boolean${optional}`;
    case "timestamptz":
      return `DateTime${optional} @db.Timestamptz(6)`;
    case "jsonb":
      return `Json${optional}`;
    case "bytea":
      return `Bytes${optional}`;
    case "uuid":
      return `String${optional} @db.Uuid`;
  }
}

function defaultAttribute(column: ColumnState): string | undefined {
  const value = column.default;
  if (!value) return undefined;
  switch (value.kind) {
    case "now":
      return "@default(now())";
    case "random_uuid":
      return `@default(dbgenerated(${prismaString("gen_random_uuid()")}))`;
    case "identity":
      return "@default(autoincrement())";
    case "sql":
      return `@default(dbgenerated(${prismaString(value.sql)}))`;
    case "value":
      if (column.type === "jsonb") return `@default(${prismaString(JSON.stringify(value.value))})`;
      if (typeof value.value === "string" && column.type !== "bigint") {
        return `@default(${prismaString(value.value)})`;
      }
      return `@default(${String(value.value)})`;
  }
}

function modelName(ns: OrmNamespace, table: string): string {
  return `${pascalCase(table)}_${ns.namespace}`;
}

/** Lines of `[name, type, attributes]`, aligned into columns like `prisma format` does. */
function align(rows: [string, string, string][]): string[] {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([a, b, c]) =>
    c === "" ? `  ${a.padEnd(w0)} ${b}`.trimEnd() : `  ${a.padEnd(w0)} ${b.padEnd(w1)} ${c}`
  );
}

function renderModels(ns: OrmNamespace): string[] {
  const models: string[] = [];
  for (const table of ns.state.tables) {
    const pk = table.primaryKey;
    const rows: [string, string, string][] = [];
    for (const column of table.columns) {
      const [type, ...nativeType] = scalar(column).split(" ");
      const attributes: string[] = [];
      if (pk.columns.length === 1 && pk.columns[0] === column.name) {
        attributes.push(`@id(map: ${prismaString(pk.name)})`);
      }
      const value = defaultAttribute(column);
      if (value) attributes.push(value);
      if (column.uniqueName) attributes.push(`@unique(map: ${prismaString(column.uniqueName)})`);
      attributes.push(...nativeType);
      rows.push([column.name, type, attributes.join(" ")]);
    }
    for (const r of ns.relations) {
      if (r.fromTable === table.name) {
        rows.push([
          r.fromField,
          `${modelName(ns, r.toTable)}${r.optional ? "?" : ""}`,
          `@relation(${
            prismaString(r.name)
          }, fields: [${r.fromColumn}], references: [${r.toColumn}], ` +
          `onDelete: ${ON_DELETE[r.onDelete]}, map: ${prismaString(r.name)})`,
        ]);
      }
      if (r.toTable === table.name) {
        rows.push([
          r.toField,
          `${modelName(ns, r.fromTable)}${r.oneToOne ? "?" : "[]"}`,
          `@relation(${prismaString(r.name)})`,
        ]);
      }
    }
    const blockAttributes: string[] = [];
    if (pk.columns.length > 1) {
      blockAttributes.push(`@@id([${pk.columns.join(", ")}], map: ${prismaString(pk.name)})`);
    }
    for (const index of ns.state.indexes.filter((i) => i.table === table.name)) {
      const where = index.where === undefined ? "" : `, where: raw(${prismaString(index.where)})`;
      blockAttributes.push(
        `@@${index.unique ? "unique" : "index"}([${index.columns.join(", ")}]${where}, ` +
          `map: ${prismaString(index.name)})`,
      );
    }
    blockAttributes.push(`@@map(${prismaString(table.name)})`);
    blockAttributes.push(`@@schema(${prismaString(ns.namespace)})`);
    models.push(
      `model ${modelName(ns, table.name)} {\n${align(rows).join("\n")}\n\n` +
        `${blockAttributes.map((a) => `  ${a}`).join("\n")}\n}`,
    );
  }
  return models;
}

/**
 * Writes the Prisma schema file of a set of namespaced schemas at their latest versions: a header
 * comment naming each namespace, schema and version; a `generator` block; the `datasource`
 * block with `provider = "postgresql"` and `schemas = [...]` (no `url`: Prisma 7 takes the
 * connection URL from `prisma.config.ts`); then one model per table, named
 * `<PascalTable>_<namespace>`, with `@@map`, `@@schema`, `@id`/`@@id`, `@unique`,
 * `@@index`/`@@unique` with `map:` names (partial ones with `where: raw(…)`, which needs the
 * `partialIndexes` preview feature, enabled only when used), `@db.*` native types, defaults
 * (`now()`, `autoincrement()`, `dbgenerated(…)`) and relation fields on both sides of every
 * foreign key. Raw `sql` steps are not reflected.
 *
 * @param schemas The schemas and the namespaces they are installed in.
 * @param options The generator block.
 * @returns The Prisma schema text, ending with a newline.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { prismaSchemaFile } from "@app/fragment-cli/migrate";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey().defaultRandom() }));
 * const text = prismaSchemaFile([{ schema }]);
 * text.includes('@@schema("notes")'); // true
 * ```
 */
export function prismaSchemaFile(
  schemas: readonly NamespacedSchema[],
  options: PrismaSchemaFileOptions = {},
): string {
  const namespaces = ormNamespaces(schemas);
  const partial = namespaces.some((n) => n.state.indexes.some((i) => i.where !== undefined));
  const generator = options.generator ?? "prisma-client-js";
  const parts = [
    [
      "// Generated by fragment-cli from the module schemas; do not edit.",
      ...namespaces.map((n) =>
        `// Namespace "${n.namespace}": schema "${n.schemaName}" at version ${n.version}`
      ),
    ].join("\n"),
  ];
  if (generator !== false) {
    const lines = [`  provider = ${prismaString(generator)}`];
    if (partial) lines.push(`  previewFeatures = ["partialIndexes"]`);
    parts.push(`generator client {\n${lines.join("\n")}\n}`);
  }
  parts.push(
    `datasource db {\n  provider = "postgresql"\n  schemas  = [${
      namespaces.map((n) => prismaString(n.namespace)).join(", ")
    }]\n}`,
  );
  for (const ns of namespaces) parts.push(...renderModels(ns));
  return `${parts.join("\n\n")}\n`;
}
