/**
 * The Drizzle ORM schema file (drizzle-orm/pg-core) of a set of namespaced schemas.
 *
 * @module
 */

import type { ColumnDef } from "../schema/column.ts";
import {
  camelCase,
  type NamespacedSchema,
  type OrmNamespace,
  ormNamespaces,
  type OrmRelation,
  pascalCase,
} from "./orm_model.ts";
import type { ColumnState, TableState } from "../schema/schema_state.ts";

function templateLiteral(text: string): string {
  return "`" + text.replaceAll("\\", "\\\\").replaceAll("`", "\\`").replaceAll("${", "\\${") + "`";
}

function sqlTag(text: string): string {
  return `sql${templateLiteral(text)}`;
}

function columnFactory(column: ColumnDef & { name: string }): string {
  const name = JSON.stringify(column.name);
  switch (column.type) {
    case "varchar":
      return `varchar(${name}, { length: ${column.length} })`;
    case "bigint":
      return `bigint(${name}, { mode: "bigint" })`;
    case "timestamptz":
      return `timestamp(${name}, { withTimezone: true })`;
    default:
      return `${column.type}(${name})`;
  }
}

function columnCode(column: ColumnState, soleKey: boolean): string {
  let code = columnFactory(column);
  if (soleKey) code += ".primaryKey()";
  if (!column.nullable) code += ".notNull()";
  const value = column.default;
  if (value) {
    switch (value.kind) {
      case "now":
        code += ".defaultNow()";
        break;
      case "random_uuid":
        code += ".defaultRandom()";
        break;
      case "identity":
        code += ".generatedByDefaultAsIdentity()";
        break;
      case "sql":
        code += `.default(${sqlTag(value.sql)})`;
        break;
      case "value":
        code += column.type === "bigint"
          ? `.default(${sqlTag(String(value.value))})`
          : `.default(${JSON.stringify(value.value)})`;
        break;
    }
  }
  if (column.uniqueName) code += `.unique(${JSON.stringify(column.uniqueName)})`;
  return code;
}

/** Orders tables so that referenced tables come before the tables referencing them. */
function orderTables(tables: readonly TableState[]): TableState[] {
  const ordered: TableState[] = [];
  const placed = new Set<string>();
  const visit = (table: TableState, path: Set<string>): void => {
    if (placed.has(table.name) || path.has(table.name)) return;
    path.add(table.name);
    for (const column of table.columns) {
      const target = tables.find((t) => t.name === column.references?.table);
      if (target && target.name !== table.name) visit(target, path);
    }
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

function tableConst(ns: OrmNamespace, table: string): string {
  return `${camelCase(ns.namespace)}${pascalCase(table)}`;
}

/**
 * Whether drizzle can find the foreign key of a one-to-one relation from the referenced table's
 * side by itself: `one(table)` without a config takes the one relation of the referencing table
 * that points back at this table, and throws at query time when there are several (two foreign
 * keys between the pair, in either direction, or a self relation, where the foreign key's own
 * side counts too).
 */
function inferable(ns: OrmNamespace, r: OrmRelation): boolean {
  if (r.fromTable === r.toTable) return false;
  return ns.relations.filter((o) =>
    (o.fromTable === r.fromTable && o.toTable === r.toTable) ||
    (o.fromTable === r.toTable && o.toTable === r.fromTable)
  ).length === 1;
}

/**
 * The relation on the referenced table's side of a foreign key. `many()` finds its foreign key by
 * name. `one()` (drizzle-orm 0.x) takes either no config, where drizzle infers the foreign key
 * (when it can, see {@linkcode inferable}), or `fields` and `references` read from this side; it
 * then types the row as always present when `fields` are NOT NULL, which the referenced side's
 * key always is, so the column type argument is widened to say the row may be absent (`| null`).
 */
function backRelation(ns: OrmNamespace, r: OrmRelation): string {
  const from = tableConst(ns, r.fromTable);
  const name = JSON.stringify(r.name);
  if (!r.oneToOne) return `many(${from}, { relationName: ${name} })`;
  if (inferable(ns, r)) return `one(${from})`;
  const to = tableConst(ns, r.toTable);
  return `one<typeof ${from}, [AnyColumn<{ tableName: ${JSON.stringify(r.toTable)} }>]>(${from}, ` +
    `{ fields: [${to}.${r.toColumn}], references: [${from}.${r.fromColumn}], relationName: ${name} })`;
}

function renderNamespace(ns: OrmNamespace): string {
  const schemaConst = `${camelCase(ns.namespace)}Schema`;
  const out: string[] = [
    `// Namespace "${ns.namespace}": schema "${ns.schemaName}", version ${ns.version}`,
    `export const ${schemaConst} = pgSchema(${JSON.stringify(ns.namespace)});`,
    `export const ${schemaConst}Version = ${ns.version};`,
  ];
  const declared = new Set<string>();
  for (const table of orderTables(ns.state.tables)) {
    declared.add(table.name);
    const pk = table.primaryKey;
    const lines = table.columns.map((c) =>
      `    ${c.name}: ${columnCode(c, pk.columns.length === 1 && pk.columns[0] === c.name)},`
    );
    const extras: string[] = [];
    if (pk.columns.length > 1) {
      extras.push(
        `primaryKey({ name: ${JSON.stringify(pk.name)}, columns: [${
          pk.columns.map((c) => `table.${c}`).join(", ")
        }] })`,
      );
    }
    for (const index of ns.state.indexes.filter((i) => i.table === table.name)) {
      let code = `${index.unique ? "uniqueIndex" : "index"}(${JSON.stringify(index.name)}).on(${
        index.columns.map((c) => `table.${c}`).join(", ")
      })`;
      if (index.where !== undefined) code += `.where(${sqlTag(index.where)})`;
      extras.push(code);
    }
    for (const column of table.columns) {
      const ref = column.references;
      if (!ref) continue;
      const target = ref.table === table.name ? "table" : tableConst(ns, ref.table);
      let code = `foreignKey({ name: ${
        JSON.stringify(column.foreignKeyName)
      }, columns: [table.${column.name}], foreignColumns: [${target}.${ref.column}] })`;
      if (ref.onDelete !== "no action") code += `.onDelete(${JSON.stringify(ref.onDelete)})`;
      extras.push(code);
    }
    // A foreign key to a table declared further down (two tables referencing each other) makes
    // the two constants' types depend on each other: TypeScript gives up on inferring them
    // (TS7022) unless this callback's return type is written out.
    const ahead = table.columns.some((c) =>
      c.references !== undefined && !declared.has(c.references.table)
    );
    const extra = extras.length === 0
      ? ""
      : `,\n  (table)${ahead ? ": PgTableExtraConfigValue[]" : ""} => [\n${
        extras.map((e) => `    ${e},`).join("\n")
      }\n  ]`;
    out.push(
      `export const ${tableConst(ns, table.name)} = ${schemaConst}.table(\n  ${
        JSON.stringify(table.name)
      },\n  {\n${lines.join("\n")}\n  }${extra},\n);`,
    );
  }
  for (const table of ns.state.tables) {
    const fields: string[] = [];
    for (const r of ns.relations) {
      if (r.fromTable === table.name) {
        fields.push(
          `  ${r.fromField}: one(${tableConst(ns, r.toTable)}, { fields: [${
            tableConst(ns, r.fromTable)
          }.${r.fromColumn}], references: [${tableConst(ns, r.toTable)}.${r.toColumn}], ` +
            `relationName: ${JSON.stringify(r.name)} }),`,
        );
      }
      if (r.toTable === table.name) fields.push(`  ${r.toField}: ${backRelation(ns, r)},`);
    }
    if (fields.length === 0) continue;
    const helpers = ["one", "many"].filter((h) =>
      fields.some((f) => new RegExp(`: ${h}[(<]`).test(f))
    );
    const name = tableConst(ns, table.name);
    out.push(
      `export const ${name}Relations = relations(${name}, ({ ${helpers.join(", ")} }) => ({\n${
        fields.join("\n")
      }\n}));`,
    );
  }
  return out.join("\n\n");
}

/**
 * Writes the Drizzle schema file of a set of namespaced schemas at their latest versions:
 * `pgSchema("<ns>")` per namespace with an exported `<ns>SchemaVersion`, one
 * `<ns>Schema.table(…)` per table (columns, primary key, unique constraints, indexes including
 * partial ones, foreign keys with ON DELETE, the same constraint names as the migrations) and
 * `relations` on both sides of every foreign key. Raw `sql` steps are not reflected.
 *
 * @param schemas The schemas and the namespaces they are installed in.
 * @returns The TypeScript source, ending with a newline.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { drizzleSchemaFile } from "@app/fragment-cli/migrate";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey().defaultRandom() }));
 * const source = drizzleSchemaFile([{ schema }]);
 * source.includes('export const notesSchema = pgSchema("notes");'); // true
 * ```
 */
export function drizzleSchemaFile(schemas: readonly NamespacedSchema[]): string {
  const namespaces = ormNamespaces(schemas);
  const bodies = namespaces.map(renderNamespace);
  const code = bodies.join("\n\n");
  const used = (word: string): boolean => new RegExp(`\\b${word}\\(`).test(code);
  const core = [
    "bigint",
    "boolean",
    "foreignKey",
    "index",
    "integer",
    "jsonb",
    "pgSchema",
    "primaryKey",
    "text",
    "timestamp",
    "uniqueIndex",
    "uuid",
    "varchar",
  ].filter(used);
  const usesBytea = used("bytea");
  if (usesBytea) core.push("customType");
  if (code.includes(": PgTableExtraConfigValue[]")) core.push("type PgTableExtraConfigValue");
  const orm = ["relations", "sql"].filter((w) => w === "sql" ? /\bsql`/.test(code) : used(w));
  if (code.includes("[AnyColumn<")) orm.unshift("type AnyColumn");
  const bare = (name: string): string => name.replace(/^type /, "");
  const header = [
    "// Generated by fragment-cli from the module schemas; do not edit.",
    ...namespaces.map((n) =>
      `// Namespace "${n.namespace}": schema "${n.schemaName}" at version ${n.version}`
    ),
    "",
    ...(orm.length > 0 ? [`import { ${orm.join(", ")} } from "drizzle-orm";`] : []),
    `import {\n${
      core.sort((a, b) => bare(a) < bare(b) ? -1 : 1).map((c) => `  ${c},`).join("\n")
    }\n} from "drizzle-orm/pg-core";`,
  ];
  if (usesBytea) {
    header.push(
      "",
      "const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({",
      '  dataType: () => "bytea",',
      "});",
    );
  }
  return `${header.join("\n")}\n\n${code}\n`;
}
