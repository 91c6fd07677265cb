/**
 * The order every organizations list is paged in, and the key its cursors are signed with.
 *
 * @module
 */

import type { KeysetColumn } from "../../pagination/mod.ts";

/**
 * Oldest first, ties broken by id: `created_at` then the uuid primary key. The types let a
 * decoded cursor be checked before it reaches SQL.
 */
export const CREATED_AT_ID: readonly KeysetColumn[] = [
  { name: "created_at", type: "timestamptz" },
  { name: "id", type: "uuid" },
];
