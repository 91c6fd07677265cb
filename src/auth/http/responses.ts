/**
 * What the answer schemas of every concept share: the schema type and the timestamp format. The
 * answers themselves live with their concept (`account/responses.ts`,
 * `organizations/responses.ts`, `me/me_response.ts`), each checked exactly (see
 * `exact_schema.ts`) against the type its service builds: the operations declare these very
 * objects as their `responses` (documented in `GET /openapi.json`), `AuthContract` (and through
 * it the typed client) takes its result types from them, and the client's tests parse every
 * answer they receive with them.
 *
 * @module
 */

import { z } from "zod";

/** A schema of an answer: what it accepts is what it yields. */
export type ResponseSchema<T> = z.ZodType<T, T>;

/** An ISO 8601 UTC timestamp. */
export const timestamp: z.ZodType<string, string> = z.iso.datetime().describe(
  "ISO 8601 UTC timestamp, e.g. 2026-11-21T15:05:58.123Z",
);
