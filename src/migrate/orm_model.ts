/**
 * What the Drizzle and Prisma outputs share: the final state of each namespace, identifier
 * casing, and the relations (one per foreign key, with a field name on each side).
 *
 * @module
 */

import type { OnDeleteAction } from "../schema/column.ts";
import { resolveNamespace } from "./migration_plan.ts";
import type { Schema } from "../schema/schema.ts";
import {
  type ColumnState,
  type SchemaState,
  schemaState,
  type TableState,
} from "../schema/schema_state.ts";

/**
 * One schema placed in a namespace, the input of the ORM outputs.
 *
 * @example Two instances of a schema in one ORM file
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { drizzleSchemaFile, type NamespacedSchema } from "@app/fragment-cli/migrate";
 *
 * const notes = defineSchema("notes", (s) =>
 *   s.createTable("notes", { id: column.uuid().primaryKey() }));
 * const archive: NamespacedSchema = { schema: notes, namespace: "notes_archive" };
 * const source = drizzleSchemaFile([{ schema: notes }, archive]);
 * ```
 */
export interface NamespacedSchema {
  /** The schema. */
  readonly schema: Schema;
  /** The namespace its tables live in. @default {schema.name} */
  readonly namespace?: string;
}

/** A foreign key seen as a relation between two tables of one namespace. */
export interface OrmRelation {
  /** The foreign key constraint name. */
  readonly name: string;
  /** The referencing table. */
  readonly fromTable: string;
  /** The referencing column. */
  readonly fromColumn: string;
  /** The referenced table. */
  readonly toTable: string;
  /** The referenced column. */
  readonly toColumn: string;
  /** The ON DELETE action. */
  readonly onDelete: OnDeleteAction;
  /** Whether the referencing column is nullable (the relation is optional). */
  readonly optional: boolean;
  /** Whether at most one row can reference a given target row (the column alone is unique). */
  readonly oneToOne: boolean;
  /** The field on the referencing table pointing at the target row. */
  readonly fromField: string;
  /** The field on the target table listing (or holding) the referencing rows. */
  readonly toField: string;
}

/** A namespace ready to be written out. */
export interface OrmNamespace {
  /** The namespace (Postgres schema). */
  readonly namespace: string;
  /** The schema's name. */
  readonly schemaName: string;
  /** The version. */
  readonly version: number;
  /** The final state of the schema. */
  readonly state: SchemaState;
  /** One relation per foreign key. */
  readonly relations: readonly OrmRelation[];
}

/**
 * `snake_case` → `PascalCase`.
 *
 * @param name A snake_case name.
 * @returns The PascalCase name.
 *
 * @example
 * ```ts
 * import { pascalCase } from "./orm_model.ts";
 * pascalCase("order_tags"); // "OrderTags"
 * ```
 */
export function pascalCase(name: string): string {
  return name.split("_").filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join("");
}

/**
 * `snake_case` → `camelCase`.
 *
 * @param name A snake_case name.
 * @returns The camelCase name.
 *
 * @example
 * ```ts
 * import { camelCase } from "./orm_model.ts";
 * camelCase("order_tags"); // "orderTags"
 * ```
 */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.length === 0 ? name : pascal[0].toLowerCase() + pascal.slice(1);
}

function isAloneUnique(state: SchemaState, table: TableState, column: ColumnState): boolean {
  if (column.unique) return true;
  if (table.primaryKey.columns.length === 1 && table.primaryKey.columns[0] === column.name) {
    return true;
  }
  return state.indexes.some((i) =>
    i.table === table.name && i.unique && i.where === undefined && i.columns.length === 1 &&
    i.columns[0] === column.name
  );
}

/** Picks `wanted`, or `wanted` + a suffix, that is not yet taken on `table`. */
function claimField(taken: Map<string, Set<string>>, table: string, wanted: string[]): string {
  const names = taken.get(table)!;
  for (const candidate of wanted) {
    if (!names.has(candidate)) {
      names.add(candidate);
      return candidate;
    }
  }
  for (let i = 2;; i++) {
    const candidate = `${wanted[0]}${i}`;
    if (!names.has(candidate)) {
      names.add(candidate);
      return candidate;
    }
  }
}

/**
 * Resolves namespaces (default the schema name), checks they are distinct, and computes each
 * namespace's final state and relations with collision-free field names.
 *
 * @param inputs The schemas and their namespaces.
 * @returns One entry per input, in order.
 *
 * @example
 * ```ts
 * import { column, defineSchema } from "@app/fragment-cli/schema";
 * import { ormNamespaces } from "./orm_model.ts";
 * const schema = defineSchema("blog", (s) =>
 *   s.createTable("authors", { id: column.uuid().primaryKey() })
 *     .createTable("posts", {
 *       id: column.uuid().primaryKey(),
 *       author_id: column.uuid().references("authors", "id"),
 *     }));
 * const [blog] = ormNamespaces([{ schema }]);
 * blog.relations[0].fromField; // "author"
 * blog.relations[0].toField; // "posts"
 * ```
 */
export function ormNamespaces(inputs: readonly NamespacedSchema[]): OrmNamespace[] {
  const seen = new Map<string, string>();
  return inputs.map(({ schema, namespace }) => {
    const ns = resolveNamespace(schema, namespace);
    const other = seen.get(ns);
    if (other !== undefined) {
      throw new TypeError(
        `Namespace "${ns}" is used by both schema "${other}" and schema "${schema.name}": ` +
          `give one of them another namespace`,
      );
    }
    seen.set(ns, schema.name);
    const state = schemaState(schema);
    const taken = new Map<string, Set<string>>(
      state.tables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]),
    );
    const relations: OrmRelation[] = [];
    for (const table of state.tables) {
      for (const column of table.columns) {
        const ref = column.references;
        if (!ref) continue;
        const base = column.name.endsWith("_id") ? column.name.slice(0, -3) : column.name;
        const fromField = claimField(taken, table.name, [camelCase(base), `${camelCase(base)}Ref`]);
        const oneToOne = isAloneUnique(state, table, column);
        const back = camelCase(table.name);
        const toField = claimField(taken, ref.table, [
          back,
          `${back}By${pascalCase(column.name)}`,
        ]);
        relations.push({
          name: column.foreignKeyName!,
          fromTable: table.name,
          fromColumn: column.name,
          toTable: ref.table,
          toColumn: ref.column,
          onDelete: ref.onDelete,
          optional: column.nullable,
          oneToOne,
          fromField,
          toField,
        });
      }
    }
    return { namespace: ns, schemaName: schema.name, version: schema.version, state, relations };
  });
}
