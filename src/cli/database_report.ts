import type { SqlAdapter } from "../sql/mod.ts";
import type { DatabaseBinding } from "./user_files/mod.ts";

/** `Found 2 modules with a database in app.ts: auth [auth], messenger [messenger]`. */
export function databasesLine(file: string, databases: readonly DatabaseBinding[]): string {
  const count = databases.length === 1 ? "1 module" : `${databases.length} modules`;
  return `Found ${count} with a database in ${file}: ${databases.map(bindingLabel).join(", ")}`;
}

/** `auth [auth]`: the module's name and, in brackets, its namespace. */
export function bindingLabel(binding: DatabaseBinding): string {
  return `${binding.moduleName} [${binding.namespace}]`;
}

/** `PGlite .data/pglite` or `PostgreSQL postgres://user@host/db` (never a password). */
export function adapterLabel(adapter: SqlAdapter): string {
  return `${adapter.kind === "pglite" ? "PGlite" : "PostgreSQL"} ${adapter.target}`;
}

/** The distinct adapters of the bindings, in first-seen order. */
export function adaptersOf(databases: readonly DatabaseBinding[]): SqlAdapter[] {
  return [...new Set(databases.map((d) => d.adapter))];
}
