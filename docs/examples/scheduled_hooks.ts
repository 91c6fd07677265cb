// The scheduled hooks example of docs/hooks.md. A program that checks what it shows, on an
// in-memory PGlite or, when DATABASE_URL is set, on that (empty) PostgreSQL database:
// `deno run -A docs/examples/scheduled_hooks.ts` (or `node …`, `bun …`).
import assert from "node:assert/strict";
import process from "node:process";
import {
  column,
  defineSchema,
  type DurableHooks,
  durableHooks,
  migrate,
  pgliteAdapter,
  postgresAdapter,
  type SqlAdapter,
  withHookTable,
} from "@app/fragment-cli";
import type { ScheduledHookPayload } from "@app/fragment-cli/hooks";

// 1. The module's schema: what the digest writes, and the hook table.
const reportsSchema = defineSchema("reports", (s) =>
  withHookTable(
    s.createTable("digests", { sent_for: column.timestamptz().primaryKey() }),
  ));

// 2. The hooks: a schedule and a handler each.
function reportHooks(db: SqlAdapter, now?: () => Date): DurableHooks {
  return durableHooks({
    adapter: db,
    namespace: "reports",
    now, // the clock; this program passes one, applications leave it out
    hooks: {
      // Weekdays at 08:30, Paris time: one occurrence per slot, whatever the number of workers.
      dailyDigest: {
        schedule: "30 8 * * MON-FRI",
        timezone: "Europe/Paris",
        backfill: "6h", // a worker starting after an outage still sends this morning's digest
        handler: async ({ scheduledFor }: ScheduledHookPayload) => {
          // At-least-once: the slot time makes the effect idempotent.
          await db.query(
            `INSERT INTO reports.digests (sent_for) VALUES ($1) ON CONFLICT DO NOTHING`,
            [scheduledFor],
          );
        },
      },
      // Every five minutes (UTC); a slot missed by more than a minute is skipped.
      sweep: { schedule: "*/5 * * * *", handler: () => {} },
    },
  });
}

// 3. Run it as a worker starting at 10:00 in Paris on Monday 12 January 2026 would.
const url = process.env.DATABASE_URL;
const db = url ? postgresAdapter(url) : pgliteAdapter();
await migrate(db, reportsSchema, { namespace: "reports" });
const mondayAtTen = () => new Date("2026-01-12T09:00:00Z");
const sentFor = async () =>
  (await db.query<{ sent_for: Date }>(`SELECT sent_for FROM reports.digests ORDER BY sent_for`))
    .map((row) => row.sent_for.toISOString());

// 08:30 in Paris (07:30Z) is within the six hours of backfill: the digest is caught up. The sweep's
// 09:00 slot (UTC) is within its minute of grace: it runs too.
assert.equal((await reportHooks(db, mondayAtTen).drain()).done, 2);
assert.deepEqual(await sentFor(), ["2026-01-12T07:30:00.000Z"]);

// A second worker at the same time finds both slots inserted: nothing runs twice.
assert.equal((await reportHooks(db, mondayAtTen).drain()).done, 0);
assert.deepEqual(await sentFor(), ["2026-01-12T07:30:00.000Z"]);

await db.query("DROP SCHEMA reports CASCADE");
await db.query("DROP SCHEMA fragment_internal CASCADE");
await db.close();
