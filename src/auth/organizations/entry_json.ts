/**
 * Organization entries (`{ organization, member }`) read as text columns and written straight
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

import { isoSql } from "./resources.ts";

/** A row of {@link entryTextColumns}: every value as text. */
export interface EntryTextRow {
  e_organization_id: string;
  e_name: string;
  e_slug: string;
  e_logo_url: string | null;
  e_metadata: string | null;
  e_created_by: string;
  e_created_at: string;
  e_updated_at: string;
  e_deleted_at: string | null;
  e_member_id: string;
  e_user_id: string;
  e_roles: string;
  e_member_created_at: string;
  e_member_updated_at: string;
}

/** The select list of an entry: organization aliased `o`, member aliased `m`, prefixed `e_`. */
export function entryTextColumns(o: string, m: string): string {
  return [
    `${o}.id AS e_organization_id`,
    `${o}.name AS e_name`,
    `${o}.slug AS e_slug`,
    `${o}.logo_url AS e_logo_url`,
    `${o}.metadata::text AS e_metadata`,
    `${o}.created_by AS e_created_by`,
    `${isoSql(`${o}.created_at`)} AS e_created_at`,
    `${isoSql(`${o}.updated_at`)} AS e_updated_at`,
    `${isoSql(`${o}.deleted_at`)} AS e_deleted_at`,
    `${m}.id AS e_member_id`,
    `${m}.user_id AS e_user_id`,
    `${m}.roles::text AS e_roles`,
    `${isoSql(`${m}.created_at`)} AS e_member_created_at`,
    `${isoSql(`${m}.updated_at`)} AS e_member_updated_at`,
  ].join(", ");
}

/** The entry of a row as JSON text (keys in the order of `toOrganization` and `toMember`). */
export function entryJsonText(row: EntryTextRow): string {
  const id = row.e_organization_id;
  return `{"organization":{"id":"${id}","name":${text(row.e_name)},"slug":${text(row.e_slug)},` +
    `"logoUrl":${text(row.e_logo_url)},"metadata":${row.e_metadata ?? "null"},` +
    `"createdBy":${text(row.e_created_by)},"createdAt":"${row.e_created_at}",` +
    `"updatedAt":"${row.e_updated_at}","deletedAt":${text(row.e_deleted_at)}},` +
    `"member":{"id":"${row.e_member_id}","organizationId":"${id}",` +
    `"userId":"${row.e_user_id}","roles":${row.e_roles},` +
    `"createdAt":"${row.e_member_created_at}","updatedAt":"${row.e_member_updated_at}"}}`;
}

function text(value: string | null): string {
  return value === null ? "null" : JSON.stringify(value);
}
