/**
 * Issue 30, point 2 (isolate churn, as Deno Deploy does it): 50 cycles of (a new postgres.js
 * adapter, a new messenger module on it, one webhook delivery, `close()` of both) in one process:
 * the server's connections of the database go back to their baseline, no promise is left
 * rejected unhandled, and every stored update's hook runs exactly once (the occurrences a
 * closed instance left waiting run in a last instance's drain).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { messenger, messengerSchema } from "../../src/messenger/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { postgresAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { createTestDatabase, enabledAdapters, type TestDatabase } from "../helpers/databases.ts";

const CYCLES = 50;
const SECRET = "isolate-churn-secret-0123456789abcdef";
const FIRST_ID = 660_000_000;

describe("isolate churn on postgres.js", { skip: !enabledAdapters().includes("postgres") }, () => {
  let database: TestDatabase;
  let observer: SqlAdapter;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };

  before(async () => {
    database = await createTestDatabase();
    observer = postgresAdapter(database.url, { max: 1 });
    await migrate(observer, messengerSchema);
    process.on("unhandledRejection", onRejection);
  });

  after(async () => {
    process.off("unhandledRejection", onRejection);
    await observer?.close();
    await database?.drop();
  });

  /** Connections to the test database other than the observer's own. */
  async function connections(): Promise<number> {
    const [row] = await observer.query<{ n: number }>(
      `SELECT count(*)::int4 AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return row.n;
  }

  it(`${CYCLES} cycles of instantiate, serve one request, close()`, async () => {
    const baseline = await connections();
    const runs = new Map<string, number>();
    const count = ({ updateId }: { updateId: string | number }): void => {
      runs.set(String(updateId), (runs.get(String(updateId)) ?? 0) + 1);
    };
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const db = postgresAdapter(database.url);
      const bot = messenger({ database: db, webhookSecret: SECRET, onUpdate: count });
      const response = await bot.fetch(
        new Request("http://isolate/api/messenger/messenger/webhook", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-messenger-bot-api-secret-token": SECRET,
          },
          body: JSON.stringify({
            update_id: FIRST_ID + cycle,
            message: { message_id: cycle, date: 1, chat: { id: cycle % 4, type: "private" } },
          }),
        }),
      );
      assert.equal(response.status, 200, await response.text());
      await bot.close();
      await db.close();
    }
    // A last instance runs what the closed ones left waiting.
    const db = postgresAdapter(database.url);
    const bot = messenger({
      database: db,
      webhookSecret: SECRET,
      onUpdate: count,
      autoStart: false,
    });
    await bot.background.drain();
    await bot.close();
    await db.close();

    const stored = await observer.query<{ update_id: string }>(
      "SELECT update_id::text AS update_id FROM messenger.updates ORDER BY update_id",
    );
    assert.equal(stored.length, CYCLES);
    assert.deepEqual(
      stored.filter((s) => runs.get(s.update_id) !== 1).map((
        s,
      ) => [s.update_id, runs.get(s.update_id)]),
      [],
      "each stored update's hook ran exactly once",
    );
    // postgres.js ends a closed pool's sockets asynchronously: wait until the server saw them go.
    let open = await connections();
    for (let i = 0; i < 100 && open > baseline; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      open = await connections();
    }
    assert.equal(open, baseline, "no connection leaked");
    assert.deepEqual(rejections, [], "no unhandled rejection");
  });
});
