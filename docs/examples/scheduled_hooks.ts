// The scheduled hooks example of docs/hooks.md. Type-checked and run by
// tests/db/scheduled_hooks_docs_example.test.ts.
import {
  column,
  defineSchema,
  type DurableHooks,
  durableHooks,
  migrate,
  type ScheduledHookPayload,
  type SqlAdapter,
  withHookTable,
} from "../../src/db/mod.ts";

export const reportsSchema = defineSchema("reports", (s) =>
  withHookTable(
    s.createTable("digests", { sent_for: column.timestamptz().primaryKey() }),
  ));

export function reportHooks(db: SqlAdapter, now?: () => Date): DurableHooks {
  return durableHooks({
    adapter: db,
    namespace: "reports",
    now, // the clock; tests pass one, applications leave it out
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

/** Runs the digest as a worker starting at 10:00 in Paris on a Monday would: it catches up 08:30. */
export async function runReports(db: SqlAdapter): Promise<{ ran: number; sent: string[] }> {
  await migrate(db, reportsSchema, { namespace: "reports" });
  const hooks = reportHooks(db, () => new Date("2026-01-12T09:00:00Z"));
  const { done } = await hooks.drain();
  const rows = await db.query<{ sent_for: Date }>(
    `SELECT sent_for FROM reports.digests ORDER BY sent_for`,
  );
  return { ran: done, sent: rows.map((row) => row.sent_for.toISOString()) };
}
