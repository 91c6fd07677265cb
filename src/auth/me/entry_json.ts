/**
 * Organization entries (`{ organization, member, permissions }`) read as text columns and written straight
 * into JSON text, for answers that carry many of them (`GET /me`). The JSON is the same as
 * `JSON.stringify(toEntry(row))` once parsed (a test compares `/me` with `GET /organizations`).
 *
 * Why text: for a user in 50 organizations, reading typed columns cost more in JavaScript (a
 * `Date` per timestamp, `jsonb` parsed, objects mapped then serialized again) than the query, and
 * building the JSON in SQL (`json_build_object` per row) cost PostgreSQL twice the whole query.
 * Timestamps are formatted by PostgreSQL ({@link isoSql}), `jsonb` columns come as their text,
 * which is JSON already, and only the free-text fields go through `JSON.stringify`.
 *
 * @module
 */

import { accessSql, type AuthOrganizationAccess, isoSql } from "../organizations/resources.ts";
import type { PermissionModel } from "../organizations/permissions.ts";

/** A row of {@link entryTextColumns}: every value as text. */
export interface EntryTextRow {
  e_organization_id: string;
  e_name: string;
  e_slug: string;
  e_logo_url: string | null;
  e_metadata: string | null;
  e_require_two_factor: "true" | "false";
  e_created_by: string;
  e_created_at: string;
  e_updated_at: string;
  e_deleted_at: string | null;
  e_member_id: string;
  e_user_id: string;
  e_roles: string;
  e_member_created_at: string;
  e_member_updated_at: string;
  e_access: AuthOrganizationAccess;
}

/**
 * Each column of {@link EntryTextRow} as SQL over the organization `o` and the member `m`, whose
 * second factor is the boolean SQL `secondFactor`.
 */
const ENTRY_TEXT_COLUMNS: Record<
  keyof EntryTextRow,
  (o: string, m: string, secondFactor: string) => string
> = {
  e_organization_id: (o) => `${o}.id`,
  e_name: (o) => `${o}.name`,
  e_slug: (o) => `${o}.slug`,
  e_logo_url: (o) => `${o}.logo_url`,
  e_metadata: (o) => `${o}.metadata::text`,
  e_require_two_factor: (o) => `${o}.require_two_factor::text`,
  e_created_by: (o) => `${o}.created_by`,
  e_created_at: (o) => isoSql(`${o}.created_at`),
  e_updated_at: (o) => isoSql(`${o}.updated_at`),
  e_deleted_at: (o) => isoSql(`${o}.deleted_at`),
  e_member_id: (_o, m) => `${m}.id`,
  e_user_id: (_o, m) => `${m}.user_id`,
  e_roles: (_o, m) => `${m}.roles::text`,
  e_member_created_at: (_o, m) => isoSql(`${m}.created_at`),
  e_member_updated_at: (_o, m) => isoSql(`${m}.updated_at`),
  e_access: (o, _m, secondFactor) => accessSql(o, secondFactor),
};

/**
 * The select list of an entry: organization aliased `o`, member aliased `m`, prefixed `e_`;
 * `secondFactor` is a boolean SQL expression saying whether the member has a second factor.
 */
export function entryTextColumns(o: string, m: string, secondFactor: string): string {
  return Object.entries(ENTRY_TEXT_COLUMNS)
    .map(([alias, sql]) => `${sql(o, m, secondFactor)} AS ${alias}`)
    .join(", ");
}

/** The columns of {@link entryTextColumns} as selected again from the relation `from`. */
export function entryTextColumnNames(from: string): string {
  return Object.keys(ENTRY_TEXT_COLUMNS).map((alias) => `${from}.${alias}`).join(", ");
}

/**
 * The entry of a row as JSON text (keys in the order of `toOrganization`, `toMember` and
 * `toEntry`; no permission while `access` is not `"member"`).
 */
export function entryJsonText(row: EntryTextRow, permissions: PermissionModel): string {
  const id = row.e_organization_id;
  const held = row.e_access === "member" ? permissions.of(JSON.parse(row.e_roles)) : [];
  return `{"organization":{"id":"${id}","name":${text(row.e_name)},"slug":${text(row.e_slug)},` +
    `"logoUrl":${text(row.e_logo_url)},"metadata":${row.e_metadata ?? "null"},` +
    `"requireTwoFactor":${row.e_require_two_factor},` +
    `"createdBy":${text(row.e_created_by)},"createdAt":"${row.e_created_at}",` +
    `"updatedAt":"${row.e_updated_at}","deletedAt":${text(row.e_deleted_at)}},` +
    `"member":{"id":"${row.e_member_id}","organizationId":"${id}",` +
    `"userId":"${row.e_user_id}","roles":${row.e_roles},` +
    `"createdAt":"${row.e_member_created_at}","updatedAt":"${row.e_member_updated_at}"},` +
    `"permissions":${JSON.stringify(held)},"access":"${row.e_access}"}`;
}

function text(value: string | null): string {
  return value === null ? "null" : JSON.stringify(value);
}
