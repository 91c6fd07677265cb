/**
 * The organization entries of `GET /me`, kept per user and reused while the rows they come from
 * are unchanged (see `validated_reads.ts` for how a change is seen).
 *
 * Why: a single-page app calls `/me` at every start, and for a user in 50 organizations each call
 * had PostgreSQL format 50 entries (four timestamps each), the driver read about 700 values and
 * the server wrote them out as JSON again, for an answer that had almost always not changed.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import {
  entryJsonText,
  entryTextColumnNames,
  entryTextColumns,
  type EntryTextRow,
} from "./entry_json.ts";
import type { PermissionModel } from "../organizations/permissions.ts";
import { type Built, type ValidatedReads, validatedReads } from "./validated_reads.ts";

/**
 * The most organizations `/me` lists (the oldest first); `organizationsHasMore` says there are
 * more, which `GET /organizations` pages in the same order. The bound keeps the answer, and what
 * is kept of it, small whatever the number of memberships.
 */
export const ME_ORGANIZATION_LIMIT = 100;

/** A user's organization entries as `/me` writes them. */
export interface MeEntries {
  /**
   * The first {@link ME_ORGANIZATION_LIMIT} entries (`{ organization, member }`) as JSON text,
   * oldest first, joined by commas.
   */
  listJson: string;
  /** Each listed entry's JSON text by organization id, to find the active organization's entry. */
  byOrganization: ReadonlyMap<string, string>;
  /** Whether the user has more live organizations than are listed. */
  hasMore: boolean;
  /**
   * Whether the user has a second factor (`users.two_factor_enabled`): read by the same
   * statement, since the entries' `access` depends on it.
   */
  twoFactorEnabled: boolean;
}

/** How many characters of entries are kept, across users (about 8 MB of strings). */
export const ME_ENTRIES_KEPT_CHARS = 4 * 1024 * 1024;

type Row = { validator: string; two_factor_enabled: boolean } & Partial<EntryTextRow>;

/** Reads a user's entries by user id, for one module instance. */
export function meEntriesReader(
  db: SqlQuerier,
  tables: AuthTableNames,
  permissions: PermissionModel,
  maxChars: number = ME_ENTRIES_KEPT_CHARS,
): ValidatedReads<MeEntries> {
  return validatedReads<Row, MeEntries>(db, {
    sql: entriesSql(tables),
    build: (rows) => build(rows, permissions),
    maxChars,
  });
}

/**
 * The validator is the user's second-factor flag (each entry's `access` depends on it, and on its
 * organization's `require_two_factor`), then the `xmin` of the first
 * {@link ME_ORGANIZATION_LIMIT} + 1 live memberships (in the order of the list) with their
 * organization's: a membership or an organization row written again, added, removed or
 * soft-deleted among them changes it, and so does one beyond them moving up. The one past the
 * limit is read only to tell whether there are more. The condition on the validator refers only
 * to the outer row, so PostgreSQL evaluates it once and, when it fails, neither reads nor formats
 * an entry; the `LIMIT` keeps the subquery from being flattened into the join, where the
 * condition would become a filter applied after reading.
 */
function entriesSql(tables: AuthTableNames): string {
  const live = `FROM ${tables.members} m
       JOIN ${tables.organizations} o ON o.id = m.organization_id AND o.deleted_at IS NULL
       WHERE m.user_id = $1`;
  const first = `ORDER BY o.created_at, o.id LIMIT ${ME_ORGANIZATION_LIMIT + 1}`;
  return `SELECT v.validator, v.two_factor_enabled, ${entryTextColumnNames("e")}
    FROM (
      SELECT f.enabled AS two_factor_enabled,
        f.enabled::text || ';' || coalesce(string_agg(p.mx || '/' || p.ox, ','), '') AS validator
      FROM (
        SELECT coalesce(
          (SELECT u.two_factor_enabled FROM ${tables.users} u WHERE u.id = $1), false
        ) AS enabled
      ) f
      LEFT JOIN (SELECT m.xmin::text AS mx, o.xmin::text AS ox ${live} ${first}) p ON true
      GROUP BY f.enabled
    ) v
    LEFT JOIN LATERAL (
      SELECT ${entryTextColumns("o", "m", "v.two_factor_enabled")}, o.created_at AS sort_at
      ${live} AND v.validator IS DISTINCT FROM $2
      ${first}
    ) e ON true
    ORDER BY e.sort_at, e.e_organization_id`;
}

function build(rows: Row[], permissions: PermissionModel): Built<MeEntries> {
  const byOrganization = new Map<string, string>();
  const list: string[] = [];
  let chars = 0;
  let hasMore = false;
  for (const row of rows) {
    // A user without organizations: the one row has no entry.
    if (row.e_organization_id == null) continue;
    if (list.length === ME_ORGANIZATION_LIMIT) {
      hasMore = true;
      break;
    }
    const json = entryJsonText(row as EntryTextRow, permissions);
    byOrganization.set(row.e_organization_id, json);
    list.push(json);
    chars += json.length;
  }
  const listJson = list.join(",");
  const twoFactorEnabled = rows[0]?.two_factor_enabled === true;
  return {
    value: { listJson, byOrganization, hasMore, twoFactorEnabled },
    chars: chars + listJson.length,
  };
}
