// Issue 30, point 2: the cold-start battery. For each runtime (Deno, Node, Bun), one child process
// (tests/reliability/fixtures/cold_start_battery.ts) runs, for each module (auth, messenger) ×
// adapter (PGlite, postgres.js), repeated cold starts: a new adapter and module, migrated, served,
// 20 concurrent first requests of mixed routes at once (auth: sign-ups, /me, organization lists,
// sessions with the previous start's tokens, a wrong sign-in; messenger: deliveries, duplicates, a
// wrong secret, a malformed body), shut down and closed. No 5xx anywhere, and nothing answered
// 200 is lost: users stored and their tokens accepted later, deliveries stored, each stored
// update's hook run exactly once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { authSchema } from "../../../src/auth/mod.ts";
import { messengerSchema } from "../../../src/messenger/mod.ts";
import { migrate } from "../../../src/migrate/mod.ts";
import { postgresAdapter, type SqlAdapter } from "../../../src/sql/mod.ts";
import { childEnv } from "../../helpers/cli_process.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { argsFor, runtimeBinary, type RuntimeName } from "../helpers/serve_process.ts";

const RUNTIMES: readonly RuntimeName[] = ["deno", "node", "bun"];
/** Cold starts per module on postgres.js, and on PGlite (whose start alone takes about 1 s). */
const REPEATS = 10;
const PGLITE_REPEATS = 10;
const CHILD = fileURLToPath(new URL("../fixtures/cold_start_battery.ts", import.meta.url));
const slow = { timeout: 900_000 };

interface StartLine {
  start: { module: string; adapter: string; n: number; readyMs: number };
  statuses: Record<string, number[]>;
  ms: number;
}

/** Runs one runtime's battery; resolves with its start lines and what it found lost. */
async function battery(
  runtime: RuntimeName,
  env: Record<string, string>,
): Promise<{ starts: StartLine[]; lost: string[] | undefined; output: string }> {
  const child = spawn(await runtimeBinary(runtime), argsFor(runtime, CHILD, []), {
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve) => child.once("close", () => resolve()));
  const lines = output.split("\n").flatMap((line) => {
    try {
      return line.startsWith("{") ? [JSON.parse(line)] : [];
    } catch {
      return [];
    }
  });
  return {
    starts: lines.filter((l) => "start" in l),
    lost: lines.find((l) => "done" in l)?.done.lost,
    output,
  };
}

describe("cold-start battery: module × adapter × runtime", () => {
  let database: TestDatabase;
  let db: SqlAdapter;
  let pgliteRoot: string;

  before(async () => {
    database = await createTestDatabase();
    db = postgresAdapter(database.url, { max: 2 });
    await migrate(db, authSchema);
    await migrate(db, messengerSchema);
    pgliteRoot = await mkdtemp(join(tmpdir(), "fragment-cold-battery-"));
  }, slow);

  after(async () => {
    await db?.close();
    await database?.drop();
    if (pgliteRoot) await rm(pgliteRoot, { recursive: true, force: true });
  }, slow);

  for (const [r, runtime] of RUNTIMES.entries()) {
    it(
      `${runtime}: 20 concurrent first requests per start, no 5xx, nothing lost`,
      slow,
      async () => {
        const result = await battery(runtime, {
          DATABASE_URL: database.url,
          PGLITE_DIR: join(pgliteRoot, runtime),
          REPEATS: String(REPEATS),
          PGLITE_REPEATS: String(PGLITE_REPEATS),
          FIRST_UPDATE_ID: String(880_000_000 + r * 1_000_000),
        });
        assert.ok(result.lost !== undefined, `the battery did not finish:\n${result.output}`);
        const expected = 2 * (REPEATS + PGLITE_REPEATS);
        assert.equal(result.starts.length, expected, result.output);
        const serverErrors = result.starts.flatMap((s) =>
          Object.entries(s.statuses).flatMap(([route, codes]) =>
            codes.filter((c) => c >= 500 || c === 0).map((c) =>
              `${s.start.module}/${s.start.adapter} start ${s.start.n}: ${route} ${c}`
            )
          )
        );
        assert.deepEqual(serverErrors, [], result.output);
        assert.deepEqual(result.lost, []);
        // Every start answered its first requests for real: deliveries 200, sign-ups 200, and from
        // the second start on, /me and organization lists with the previous start's tokens 200.
        for (const s of result.starts) {
          const { module, n } = s.start;
          if (module === "messenger") {
            assert.deepEqual(new Set(s.statuses.webhook), new Set([200]), JSON.stringify(s));
            assert.deepEqual(s.statuses["webhook (bad secret)"], [401], JSON.stringify(s));
          } else {
            assert.ok(
              s.statuses["sign-up"].every((c) => c === 200),
              JSON.stringify(s),
            );
            if (n > 0) {
              assert.ok(s.statuses.me.every((c) => c === 200), JSON.stringify(s));
              assert.ok(s.statuses.organizations.every((c) => c === 200), JSON.stringify(s));
            }
          }
        }
        const ready = (adapter: string) =>
          result.starts.filter((s) => s.start.adapter === adapter).map((s) => s.start.readyMs)
            .sort((a, b) => a - b);
        console.log(
          `${runtime}: median start to listening ${median(ready("postgres"))} ms (postgres.js), ` +
            `${median(ready("pglite"))} ms (PGlite); ` +
            `battery ${Math.round(result.starts.reduce((t, s) => t + s.ms, 0) / 1000)} s`,
        );
      },
    );
  }
});

function median(sorted: number[]): number {
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
