/**
 * Reads whose answer is kept per key and reused while the database still holds the rows it was
 * built from, for the parts of `GET /me` that are large and rarely change (see `organization_entries.ts`,
 * `pending_invitations.ts`).
 *
 * Every read still runs its statement: the answer is never older than that statement. The
 * statement computes a validator over the rows the answer comes from and returns those rows only
 * when the validator differs from the one held (`$2`, `NULL` when nothing is held); otherwise it
 * returns one row with the validator alone. The validators are built from `xmin`, the transaction
 * that wrote each version of a row: a committed insert, update or delete adds a transaction id the
 * held validator cannot contain, or takes an element away, so the validator changes with any
 * change, from this process or any other, plain SQL included. A timestamp could not serve:
 * `now()` is the start of a transaction, so a change that commits later can carry an older time.
 * The order of the elements may differ between two reads of unchanged rows; that costs a rebuild,
 * never a stale answer.
 *
 * Kept answers are bounded by their size in characters, least recently used out first.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";

/** The first column of every row of a validated statement. */
export interface ValidatedRow {
  validator: string;
}

/** What a validated statement's rows are turned into. */
export interface Built<T> {
  value: T;
  /** Its size, counted against the bound (string lengths, roughly). */
  chars: number;
}

/** One kind of validated read. */
export interface ValidatedReadOptions<Row extends ValidatedRow, T> {
  /** `$1`: the key's parameter; `$2`: the validator held or `NULL`. Every row has `validator`. */
  sql: string;
  /** Builds the answer from rows returned because the validator changed. */
  build(rows: Row[]): Built<T>;
  /** How many characters of answers to keep, across keys. */
  maxChars: number;
}

/** Reads answers by key, reusing a kept one when its rows are unchanged. */
export interface ValidatedReads<T> {
  read(key: string): Promise<T>;
}

interface Kept<T> {
  value: T;
  validator: string;
  /** What it counts against the bound: its own size and its validator's. */
  size: number;
}

/** A validated read for one module instance, with its own kept answers. */
export function validatedReads<Row extends ValidatedRow, T>(
  db: SqlQuerier,
  options: ValidatedReadOptions<Row, T>,
): ValidatedReads<T> {
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recent.
  const kept = new Map<string, Kept<T>>();
  let keptSize = 0;

  const forget = (key: string, answer: Kept<T>) => {
    kept.delete(key);
    keptSize -= answer.size;
  };

  /** Keeps `answer` as the most recent, then drops the least recent ones beyond the bound. */
  const keep = (key: string, answer: Kept<T>) => {
    const old = kept.get(key);
    if (old) forget(key, old);
    if (answer.size > options.maxChars) return;
    kept.set(key, answer);
    keptSize += answer.size;
    for (const [oldestKey, oldest] of kept) {
      if (keptSize <= options.maxChars) break;
      forget(oldestKey, oldest);
    }
  };

  return {
    async read(key) {
      const held = kept.get(key);
      const rows = await db.query<Row>(options.sql, [key, held?.validator ?? null]);
      const validator = rows[0].validator;
      if (held && held.validator === validator) {
        keep(key, held);
        return held.value;
      }
      const { value, chars } = options.build(rows);
      keep(key, { value, validator, size: chars + validator.length });
      return value;
    },
  };
}
