/**
 * Named prepared statements for PGlite: its `query()` sends every statement unnamed (Parse,
 * Describe, Bind, Describe, Execute and Sync, each a call into the WebAssembly module), so
 * PostgreSQL parses and plans it again on every call. Here a parameterized statement is parsed once
 * under a name, and each later run is one call: Bind, Execute and Sync.
 *
 * @module
 */

import type { PGlite } from "@electric-sql/pglite";

/** What the statements need of `@electric-sql/pglite` besides the instance, loaded with it. */
export type PgliteLibrary = Pick<
  typeof import("@electric-sql/pglite"),
  "protocol" | "types"
>;

/** A statement parsed under a name: its parameters' types and its rows' columns. */
interface Prepared {
  readonly name: string;
  readonly parameterTypes: readonly number[];
  readonly columns: readonly { readonly name: string; readonly type: number }[];
}

/** Runs parameterized statements as named prepared statements of one PGlite instance. */
export interface PgliteStatements {
  /**
   * Runs a statement with at least one parameter, prepared on its first run.
   * @param retry Whether a statement the server no longer holds (or whose result type changed)
   *   may be prepared and run again: only outside a transaction, which the error aborted.
   */
  run<T>(text: string, params: readonly unknown[], retry: boolean): Promise<T[]>;
}

/** How many statements one instance keeps prepared; the least recently used goes first. */
export const PREPARED_STATEMENT_LIMIT = 200;

/** `invalid_sql_statement_name`: the name is gone (`DEALLOCATE ALL`, `DISCARD ALL`). */
const STATEMENT_GONE = "26000";
/** What PostgreSQL says when DDL changed the columns a prepared statement returns. */
const RESULT_TYPE_CHANGED = /cached plan must not change result type/;

/**
 * The prepared statements of one PGlite instance. The caller serializes every use of the instance
 * (the adapter's mutex), so batches never interleave.
 *
 * @param db The open instance.
 * @param library The package's protocol serializer and type parsers.
 * @param limit How many statements stay prepared.
 * @returns The statements.
 */
export function pgliteStatements(
  db: PGlite,
  library: PgliteLibrary,
  limit: number = PREPARED_STATEMENT_LIMIT,
): PgliteStatements {
  const serialize = library.protocol.serialize;
  const parseType = library.types.parseType;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const prepared = new Map<string, Prepared>();
  /** Close messages of evicted statements, sent with the next Parse. */
  let closing: Uint8Array[] = [];
  let counter = 0;

  async function prepare(text: string): Promise<Prepared> {
    const name = `fragment_${++counter}`;
    if (prepared.size >= limit) {
      const [oldest, statement] = prepared.entries().next().value!;
      prepared.delete(oldest);
      closing.push(serialize.close({ type: "S", name: statement.name }));
    }
    const batch = [
      ...closing,
      serialize.parse({ name, text }),
      serialize.describe({ type: "S", name }),
      serialize.sync(),
    ];
    // Sent even when the Parse fails: Close runs before it and is not skipped by its error.
    closing = [];
    const { messages } = await db.execProtocol(concatenate(batch));
    const parameters = messages.find((message) => message.name === "parameterDescription") as
      | { dataTypeIDs: number[] }
      | undefined;
    const description = messages.find((message) => message.name === "rowDescription") as
      | { fields: { name: string; dataTypeID: number }[] }
      | undefined;
    const statement: Prepared = {
      name,
      parameterTypes: parameters?.dataTypeIDs ?? [],
      columns: description?.fields.map((field) => ({ name: field.name, type: field.dataTypeID })) ??
        [],
    };
    prepared.set(text, statement);
    return statement;
  }

  async function execute<T>(statement: Prepared, params: readonly unknown[]): Promise<T[]> {
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = db.serializers[statement.parameterTypes[i]];
      return serializer ? serializer(param) : String(param);
    });
    const { messages } = await db.execProtocol(concatenate([
      serialize.bind({ statement: statement.name, values }),
      serialize.execute({}),
      serialize.sync(),
    ]));
    const rows: T[] = [];
    const columns = statement.columns;
    for (const message of messages) {
      if (message.name !== "dataRow") continue;
      const fields = (message as unknown as { fields: (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) {
        row[columns[i].name] = parseType(fields[i], columns[i].type, db.parsers);
      }
      rows.push(row as T);
    }
    return rows;
  }

  return {
    async run<T>(text: string, params: readonly unknown[], retry: boolean): Promise<T[]> {
      let statement = prepared.get(text);
      if (statement === undefined) {
        statement = await prepare(text);
      } else {
        prepared.delete(text);
        prepared.set(text, statement);
      }
      try {
        return await execute<T>(statement, params);
      } catch (error) {
        // Only this statement is forgotten: any other one that is gone too fails the same way
        // on its next run, and those still held stay usable.
        if ((error as { code?: unknown }).code === STATEMENT_GONE) {
          prepared.delete(text);
        } else if (RESULT_TYPE_CHANGED.test((error as Error).message)) {
          prepared.delete(text);
          closing.push(serialize.close({ type: "S", name: statement.name }));
        } else {
          throw error;
        }
        if (!retry) throw error;
        return await execute<T>(await prepare(text), params);
      }
    },
  };
}

/** The frontend messages of one batch as one buffer. */
function concatenate(messages: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const message of messages) length += message.length;
  const buffer = new Uint8Array(length);
  let offset = 0;
  for (const message of messages) {
    buffer.set(message, offset);
    offset += message.length;
  }
  return buffer;
}
