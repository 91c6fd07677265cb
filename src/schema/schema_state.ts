/**
 * The state of a schema after a number of steps (tables, columns, indexes, constraint names),
 * computed by replaying its steps, and the definition-time checks that reject steps which
 * could not migrate.
 *
 * @module
 */

import type { ColumnDef, ColumnReference } from "./column.ts";
import type { NamedColumnDef, SchemaStep, StepDefinition } from "./schema_step.ts";
import { MAX_IDENTIFIER_BYTES } from "../sql/sql_identifier.ts";

/** A column of a table in a {@linkcode SchemaState}. */
export interface ColumnState extends ColumnDef {
  /** The column name. */
  readonly name: string;
  /** The name of its UNIQUE constraint, when `unique`. */
  readonly uniqueName?: string;
  /** The name of its foreign key constraint, when it `references` another column. */
  readonly foreignKeyName?: string;
}

/** An index created by `addIndex`. */
export interface IndexState {
  /** The name. */
  readonly name: string;
  /** The table. */
  readonly table: string;
  /** The columns, in order. */
  readonly columns: readonly string[];
  /** Whether it is unique. */
  readonly unique: boolean;
  /** The partial-index predicate, raw SQL. */
  readonly where?: string;
}

/** A table in a {@linkcode SchemaState}. */
export interface TableState {
  /** The name. */
  readonly name: string;
  /** The columns in creation order (added columns last). */
  readonly columns: readonly ColumnState[];
  /** The primary key constraint. */
  readonly primaryKey: { readonly name: string; readonly columns: readonly string[] };
}

/** The tables and indexes of a schema at some version. */
export interface SchemaState {
  /** The schema's name. */
  readonly name: string;
  /** The version this state is at. */
  readonly version: number;
  /** The tables, in creation order. */
  readonly tables: readonly TableState[];
  /** The indexes created by `addIndex`, in creation order. */
  readonly indexes: readonly IndexState[];
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * The names this package gives to constraints, the same as PostgreSQL's own defaults:
 * `<table>_pkey`, `<table>_<column>_key` and `<table>_<column>_fkey`.
 *
 * @example
 * ```ts
 * import { constraintName } from "./schema_state.ts";
 * constraintName.unique("users", "email"); // "users_email_key"
 * ```
 */
export const constraintName: {
  primaryKey(table: string): string;
  unique(table: string, column: string): string;
  foreignKey(table: string, column: string): string;
} = {
  primaryKey: (table) => `${table}_pkey`,
  unique: (table, column) => `${table}_${column}_key`,
  foreignKey: (table, column) => `${table}_${column}_fkey`,
};

/**
 * Checks a schema, namespace, table, column or index name: lowercase snake_case (`[a-z_][a-z0-9_]*`)
 * of at most 63 bytes. Throws a `TypeError` naming `what` otherwise.
 *
 * @param name The name to check.
 * @param what What it names, for the message (e.g. `Schema "auth": table name`).
 * @returns Nothing; throws on an invalid name.
 *
 * @example
 * ```ts
 * import { assertName } from "./schema_state.ts";
 * assertName("user_sessions", "table name"); // fine
 * ```
 */
export function assertName(name: string, what: string): void {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new TypeError(
      `${what} ${JSON.stringify(name)} is invalid: use lowercase letters, digits and _ ` +
        `(starting with a letter or _)`,
    );
  }
  if (name.length > MAX_IDENTIFIER_BYTES) {
    throw new TypeError(
      `${what} ${JSON.stringify(name)} is longer than the ${MAX_IDENTIFIER_BYTES} bytes ` +
        `PostgreSQL allows`,
    );
  }
}

interface Draft {
  tables: TableState[];
  indexes: IndexState[];
}

function stepLabel(schemaName: string, version: number, step: StepDefinition): string {
  const table = "table" in step ? ` on table "${step.table}"` : "";
  return `Schema "${schemaName}" step ${version} (${step.kind}${table})`;
}

/**
 * Applies one step to a state, checking that it can migrate. Throws a `TypeError` whose message
 * names the schema, the step version and kind, and the table, column or index at fault.
 *
 * @param state The state before the step (not modified).
 * @param step The step to apply.
 * @returns The state after the step.
 *
 * @example Replaying steps by hand
 * ```ts
 * import { applyStep, emptyState } from "./schema_state.ts";
 * const state = applyStep(emptyState("notes"), {
 *   kind: "createTable",
 *   table: "notes",
 *   columns: [{ name: "id", type: "text", nullable: false, primaryKey: true, unique: false }],
 *   primaryKey: ["id"],
 * });
 * state.version; // 1
 * ```
 */
export function applyStep(state: SchemaState, step: StepDefinition): SchemaState {
  const version = state.version + 1;
  const label = stepLabel(state.name, version, step);
  const fail = (message: string): never => {
    throw new TypeError(`${label}: ${message}`);
  };
  const draft: Draft = { tables: [...state.tables], indexes: [...state.indexes] };
  const findTable = (name: string): TableState =>
    draft.tables.find((t) => t.name === name) ?? fail(`table "${name}" does not exist`);
  const findColumn = (table: TableState, name: string): ColumnState =>
    table.columns.find((c) => c.name === name) ??
      fail(`column "${name}" does not exist in table "${table.name}"`);
  const replaceTable = (table: TableState): void => {
    draft.tables = draft.tables.map((t) => (t.name === table.name ? table : t));
  };
  // Tables, indexes, primary keys and unique constraints share one name space per Postgres schema.
  const relationNames = (): Set<string> => {
    const names = new Set<string>();
    for (const table of draft.tables) {
      names.add(table.name).add(table.primaryKey.name);
      for (const column of table.columns) if (column.uniqueName) names.add(column.uniqueName);
    }
    for (const index of draft.indexes) names.add(index.name);
    return names;
  };
  const claim = (name: string, what: string): void => {
    if (name.length > MAX_IDENTIFIER_BYTES) {
      fail(`the ${what} name "${name}" is longer than ${MAX_IDENTIFIER_BYTES} bytes: shorten it`);
    }
    if (relationNames().has(name)) {
      fail(`the ${what} name "${name}" is already used by a table, index or constraint`);
    }
  };
  const checkReference = (
    tableName: string,
    column: NamedColumnDef,
    own: readonly NamedColumnDef[],
    ownPrimaryKey: readonly string[],
  ): void => {
    const ref: ColumnReference | undefined = column.references;
    if (!ref) return;
    const where = `column "${column.name}" references "${ref.table}"("${ref.column}")`;
    let target: ColumnState | NamedColumnDef | undefined;
    let targetKey: readonly string[];
    if (ref.table === tableName) {
      target = own.find((c) => c.name === ref.column);
      targetKey = ownPrimaryKey;
    } else {
      const table = draft.tables.find((t) => t.name === ref.table);
      if (!table) fail(`${where}, but table "${ref.table}" does not exist`);
      target = table!.columns.find((c) => c.name === ref.column);
      targetKey = table!.primaryKey.columns;
    }
    if (!target) fail(`${where}, but that column does not exist`);
    const isKey = target!.unique || (targetKey.length === 1 && targetKey[0] === target!.name);
    if (!isKey) fail(`${where}, which is neither a single-column primary key nor unique`);
    if (target!.type !== column.type || target!.length !== column.length) {
      fail(`${where}, whose type ${target!.type} differs from ${column.type}`);
    }
    if (ref.onDelete === "set null" && !column.nullable) {
      fail(`${where} with ON DELETE SET NULL but is NOT NULL: make it .nullable()`);
    }
    if (ref.onDelete === "set default" && !column.default) {
      fail(`${where} with ON DELETE SET DEFAULT but has no default`);
    }
  };
  const columnState = (table: string, column: NamedColumnDef): ColumnState => {
    if (column.primaryKey && column.nullable) {
      fail(`primary key column "${column.name}" cannot be nullable`);
    }
    let result: ColumnState = { ...column };
    if (column.unique) {
      const uniqueName = constraintName.unique(table, column.name);
      claim(uniqueName, "unique constraint");
      result = { ...result, uniqueName };
    }
    if (column.references) {
      const foreignKeyName = constraintName.foreignKey(table, column.name);
      if (foreignKeyName.length > MAX_IDENTIFIER_BYTES) {
        fail(
          `the foreign key name "${foreignKeyName}" is longer than ${MAX_IDENTIFIER_BYTES} bytes`,
        );
      }
      result = { ...result, foreignKeyName };
    }
    return result;
  };
  // Other tables' foreign keys and indexes that use a column.
  const usersOf = (table: string, column: string): string[] => {
    const users: string[] = [];
    for (const index of draft.indexes) {
      if (index.table === table && index.columns.includes(column)) {
        users.push(`index "${index.name}"`);
      }
    }
    for (const other of draft.tables) {
      for (const c of other.columns) {
        if (c.references?.table === table && c.references.column === column) {
          users.push(`foreign key "${c.foreignKeyName}" of table "${other.name}"`);
        }
      }
    }
    return users;
  };

  switch (step.kind) {
    case "createTable": {
      assertName(step.table, `${label}: table name`);
      if (draft.tables.some((t) => t.name === step.table)) fail(`table already exists`);
      claim(step.table, "table");
      if (step.columns.length === 0) fail("a table needs at least one column");
      const seen = new Set<string>();
      for (const column of step.columns) {
        assertName(column.name, `${label}: column name`);
        if (seen.has(column.name)) fail(`duplicate column "${column.name}"`);
        seen.add(column.name);
      }
      const inline = step.columns.filter((c) => c.primaryKey).map((c) => c.name);
      let primaryKey = step.primaryKey;
      if (inline.length > 0 && primaryKey.length > 0) {
        fail("give the primary key either on a column or in the options, not both");
      }
      if (inline.length > 1) {
        fail(`several columns are .primaryKey() (${inline.join(", ")}): use options.primaryKey`);
      }
      if (primaryKey.length === 0) primaryKey = inline;
      if (primaryKey.length === 0) {
        fail("a table needs a primary key: mark a column .primaryKey() or set options.primaryKey");
      }
      if (new Set(primaryKey).size !== primaryKey.length) fail("duplicate primary key column");
      for (const name of primaryKey) {
        const column = step.columns.find((c) => c.name === name);
        if (!column) fail(`primary key column "${name}" does not exist`);
        if (column!.nullable) fail(`primary key column "${name}" cannot be nullable`);
      }
      const pkName = constraintName.primaryKey(step.table);
      claim(pkName, "primary key");
      draft.tables.push({
        name: step.table,
        columns: [],
        primaryKey: { name: pkName, columns: [] },
      });
      const columns: ColumnState[] = [];
      for (const column of step.columns) {
        checkReference(step.table, column, step.columns, primaryKey);
        columns.push(columnState(step.table, column));
        replaceTable({
          name: step.table,
          columns: [...columns],
          primaryKey: { name: pkName, columns: [] },
        });
      }
      replaceTable({
        name: step.table,
        columns,
        primaryKey: { name: pkName, columns: primaryKey },
      });
      break;
    }
    case "addColumn": {
      const table = findTable(step.table);
      const column = step.column;
      assertName(column.name, `${label}: column name`);
      if (table.columns.some((c) => c.name === column.name)) {
        fail(`column "${column.name}" already exists`);
      }
      if (column.primaryKey) fail(`column "${column.name}": a primary key cannot be added later`);
      if (!column.nullable && !column.default) {
        fail(
          `column "${column.name}" is NOT NULL without a default, which fails on a table with ` +
            `rows: give it a .default(…) or make it .nullable() (then backfill and setNotNull)`,
        );
      }
      checkReference(step.table, column, table.columns, table.primaryKey.columns);
      replaceTable({ ...table, columns: [...table.columns, columnState(step.table, column)] });
      break;
    }
    case "dropColumn": {
      const table = findTable(step.table);
      findColumn(table, step.column);
      if (table.primaryKey.columns.includes(step.column)) {
        fail(`column "${step.column}" is part of the primary key and cannot be dropped`);
      }
      if (table.columns.length === 1) fail(`column "${step.column}" is the table's only column`);
      const users = usersOf(step.table, step.column);
      if (users.length > 0) {
        fail(`column "${step.column}" is used by ${users.join(", ")}: drop those first`);
      }
      replaceTable({ ...table, columns: table.columns.filter((c) => c.name !== step.column) });
      break;
    }
    case "renameColumn": {
      const table = findTable(step.table);
      findColumn(table, step.from);
      assertName(step.to, `${label}: new column name`);
      if (table.columns.some((c) => c.name === step.to)) {
        fail(`column "${step.to}" already exists`);
      }
      const rename = (name: string): string => (name === step.from ? step.to : name);
      replaceTable({
        ...table,
        columns: table.columns.map((c) => (c.name === step.from ? { ...c, name: step.to } : c)),
        primaryKey: { ...table.primaryKey, columns: table.primaryKey.columns.map(rename) },
      });
      // Postgres keeps indexes and foreign keys attached to the renamed column.
      draft.indexes = draft.indexes.map((i) =>
        i.table === step.table ? { ...i, columns: i.columns.map(rename) } : i
      );
      draft.tables = draft.tables.map((t) => ({
        ...t,
        columns: t.columns.map((c) =>
          c.references?.table === step.table && c.references.column === step.from
            ? { ...c, references: { ...c.references, column: step.to } }
            : c
        ),
      }));
      break;
    }
    case "addIndex": {
      const table = findTable(step.table);
      assertName(step.name, `${label}: index name`);
      claim(step.name, "index");
      if (step.columns.length === 0) fail(`index "${step.name}" needs at least one column`);
      if (new Set(step.columns).size !== step.columns.length) {
        fail(`index "${step.name}" lists a column twice`);
      }
      for (const name of step.columns) {
        if (!table.columns.some((c) => c.name === name)) {
          fail(`index "${step.name}" uses column "${name}", which does not exist`);
        }
      }
      if (step.where !== undefined && step.where.trim() === "") {
        fail(`index "${step.name}" has an empty where clause`);
      }
      draft.indexes.push({
        name: step.name,
        table: step.table,
        columns: [...step.columns],
        unique: step.unique,
        ...(step.where === undefined ? {} : { where: step.where }),
      });
      break;
    }
    case "dropIndex": {
      if (!draft.indexes.some((i) => i.name === step.name)) {
        fail(`index "${step.name}" does not exist (only indexes made by addIndex can be dropped)`);
      }
      draft.indexes = draft.indexes.filter((i) => i.name !== step.name);
      break;
    }
    case "setNotNull":
    case "dropNotNull": {
      const table = findTable(step.table);
      const column = findColumn(table, step.column);
      const nullable = step.kind === "dropNotNull";
      if (column.nullable === nullable) {
        fail(`column "${step.column}" is already ${nullable ? "nullable" : "NOT NULL"}`);
      }
      if (nullable && table.primaryKey.columns.includes(step.column)) {
        fail(`column "${step.column}" is part of the primary key and must stay NOT NULL`);
      }
      if (nullable && column.default?.kind === "identity") {
        fail(`column "${step.column}" is an identity column and must stay NOT NULL`);
      }
      if (!nullable && column.references?.onDelete === "set null") {
        fail(`column "${step.column}" has ON DELETE SET NULL and must stay nullable`);
      }
      replaceTable({
        ...table,
        columns: table.columns.map((c) => (c.name === step.column ? { ...c, nullable } : c)),
      });
      break;
    }
    case "dropTable": {
      findTable(step.table);
      for (const other of draft.tables) {
        if (other.name === step.table) continue;
        for (const c of other.columns) {
          if (c.references?.table === step.table) {
            fail(`table "${other.name}" references it (foreign key "${c.foreignKeyName}")`);
          }
        }
      }
      draft.tables = draft.tables.filter((t) => t.name !== step.table);
      draft.indexes = draft.indexes.filter((i) => i.table !== step.table);
      break;
    }
    case "sql": {
      const body = step.body;
      const empty = typeof body === "string"
        ? body.trim() === ""
        : Array.isArray(body)
        ? body.length === 0 || body.some((s) => typeof s !== "string" || s.trim() === "")
        : typeof body !== "function";
      if (empty) fail("raw SQL needs a non-empty statement, list of statements or function");
      break;
    }
    default:
      fail(`unknown step kind ${JSON.stringify((step as { kind: unknown }).kind)}`);
  }
  return { name: state.name, version, tables: draft.tables, indexes: draft.indexes };
}

/**
 * The state of a schema before its first step (version 0).
 *
 * @param name The schema name.
 * @returns An empty state at version 0.
 *
 * @example
 * ```ts
 * import { emptyState } from "./schema_state.ts";
 * emptyState("auth").tables.length; // 0
 * ```
 */
export function emptyState(name: string): SchemaState {
  return { name, version: 0, tables: [], indexes: [] };
}

/**
 * The tables and indexes of a schema after `version` steps (default: all of them).
 *
 * @param schema The schema (anything with a `name` and `steps`).
 * @param version The version to stop at. @default {schema.steps.length}
 * @returns The state at that version.
 *
 * @example Tables of the latest version
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { schemaState } from "./schema_state.ts";
 * const schema = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.text().primaryKey() }));
 * schemaState(schema).tables.map((t) => t.name); // ["notes"]
 * ```
 */
export function schemaState(
  schema: { readonly name: string; readonly steps: readonly SchemaStep[] },
  version: number = schema.steps.length,
): SchemaState {
  if (!Number.isInteger(version) || version < 0 || version > schema.steps.length) {
    throw new RangeError(
      `Schema "${schema.name}" has versions 0 … ${schema.steps.length}, not ${version}`,
    );
  }
  let state = emptyState(schema.name);
  for (const step of schema.steps.slice(0, version)) state = applyStep(state, step);
  return state;
}
