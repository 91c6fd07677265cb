// Runs the scheduled hooks example of docs/hooks.md (docs/examples/scheduled_hooks.ts) on PGlite
// and PostgreSQL.
import { it } from "node:test";
import assert from "node:assert/strict";
import { runReports } from "../../docs/examples/scheduled_hooks.ts";
import { forEachAdapter } from "../helpers/databases.ts";

forEachAdapter((name, getAdapter) => {
  it(`${name}: docs/examples/scheduled_hooks.ts backfills the morning's digest`, async () => {
    // 10:00 in Paris on Monday 12 January 2026: 08:30 (07:30Z) is within the six hours of backfill.
    // The sweep's 09:00 slot (UTC) is within its minute of grace: it runs too.
    assert.deepEqual(await runReports(getAdapter()), {
      ran: 2,
      sent: ["2026-01-12T07:30:00.000Z"],
    });
    // A second worker at the same time finds both slots inserted: nothing runs twice.
    assert.deepEqual(await runReports(getAdapter()), {
      ran: 0,
      sent: ["2026-01-12T07:30:00.000Z"],
    });
  });
});
