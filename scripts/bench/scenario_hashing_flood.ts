/**
 * Scenario 8 (issue 20, finding 3): a legitimate sign-in during a flood of junk sign-ins, at the
 * default password cost, over real HTTP. Target: within 2× its unloaded time.
 *
 * The flood: `concurrency` junk clients, each from its own address (`X-Forwarded-For`, trusted by
 * the app), each signing in with unknown emails in a loop; a client whose attempt was refused
 * (503) pauses 100 ms, so that the load generator, on the same two cores, does not take the CPU the
 * server needs. The legitimate sign-ins come one at a time, each from a fresh address (as distinct
 * users would), after the flood has run for 6 s; each is tried once (no retry on 503). The wait
 * matters: the flood's first arrivals have asked only once, like a user, and are served in their
 * order; the queue favours a newcomer only over the addresses that keep asking.
 *
 * Usage alone: deno run -A scripts/bench/scenario_hashing_flood.ts [--quick]
 *
 * @module
 */
import { rmSync } from "node:fs";
import process from "node:process";
import { benchTempDir, findRuntimes, median } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";
import { startOurServe, withServer } from "./servers.ts";

const MOUNT = "/api/auth";
const USER = { email: "legit@bench.test", password: "correct horse battery" };

interface Attempt {
  status: number;
  ms: number;
  /** The error code of a refusal. */
  code?: string;
}

async function signIn(origin: string, address: string, body: unknown): Promise<Attempt> {
  const started = performance.now();
  const response = await fetch(`${origin}${MOUNT}/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const code = response.ok ? undefined : JSON.parse(text).error?.code;
  return { status: response.status, ms, code };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Legitimate sign-ins, one at a time, each from a fresh address of `prefix`. */
async function legitimate(origin: string, prefix: string, count: number): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  for (let i = 0; i < count; i++) {
    attempts.push(await signIn(origin, `${prefix}.${i + 1}`, USER));
    await sleep(200);
  }
  return attempts;
}

/** Runs the flood around `during`; returns its result and the flood's status counts. */
async function withFlood<T>(
  origin: string,
  concurrency: number,
  warmupMs: number,
  during: () => Promise<T>,
): Promise<{ result: T; statuses: Record<number, number> }> {
  let stop = false;
  const statuses: Record<number, number> = {};
  const worker = async (i: number) => {
    const address = `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    for (let n = 0; !stop; n++) {
      const { status } = await signIn(origin, address, {
        email: `junk-${i}-${n}@bench.test`,
        password: `junk password ${n}`,
      });
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 401) await sleep(100);
    }
  };
  const workers = Array.from({ length: concurrency }, (_, i) => worker(i));
  try {
    await sleep(warmupMs);
    return { result: await during(), statuses };
  } finally {
    stop = true;
    await Promise.all(workers);
  }
}

export const hashingFloodScenario: Scenario = {
  number: 8,
  title: "legitimate sign-in during a hashing flood",
  async run(context: BenchContext): Promise<BenchRow[]> {
    const cwd = benchTempDir("hashing-flood");
    try {
      return await withServer(
        startOurServe(context, ["scripts/bench/flood_app.ts"], { cwd }),
        async (server) => {
          const origin = server.origin;
          const signUp = await fetch(`${origin}${MOUNT}/sign-up`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.1" },
            body: JSON.stringify(USER),
          });
          if (!signUp.ok) throw new Error(`sign-up failed: ${await signUp.text()}`);
          const count = context.quick ? 2 : 8;
          const unloaded = await legitimate(origin, "198.51.100", count);
          const base = median(unloaded.map((a) => a.ms));
          context.log(`hashing flood: unloaded sign-in ${base.toFixed(0)} ms`);
          const rows: BenchRow[] = [];
          for (const concurrency of context.quick ? [4] : [16, 64]) {
            const { result, statuses } = await withFlood(
              origin,
              concurrency,
              context.quick ? 500 : 6000,
              () => legitimate(origin, `198.51.${100 + concurrency}`, count),
            );
            const ok = result.filter((a) => a.status === 200);
            // A refused legitimate sign-in fails the row; the figure is then the median of all.
            const loaded = median((ok.length > 0 ? ok : result).map((a) => a.ms));
            const worst = Math.max(...result.map((a) => a.ms));
            context.log(
              `hashing flood ×${concurrency}: legit ${
                result.map((a) => `${a.code ?? a.status}/${a.ms.toFixed(0)}`).join(" ")
              }; junk ${JSON.stringify(statuses)}`,
            );
            const row = benchRow({
              scenario: 8,
              name: `sign-in during ${concurrency} concurrent junk sign-ins`,
              unit: "ms",
              ours: loaded,
              reference: base,
              referenceName: "the same sign-in unloaded",
              target: { kind: "ratio-at-most", value: 2 },
              note: `median of ${ok.length}/${result.length} legitimate sign-ins answered 200 ` +
                `(others: ${
                  result.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.code}`).join(
                    ", ",
                  ) || "none"
                }), ` +
                `slowest ${worst.toFixed(0)} ms; junk answers ${JSON.stringify(statuses)}`,
            });
            rows.push(ok.length === result.length ? row : { ...row, pass: false });
          }
          return rows;
        },
      );
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  },
};

if (import.meta.main) {
  const quick = process.argv.includes("--quick");
  const rows = await hashingFloodScenario.run({
    runtimes: await findRuntimes(),
    quick,
    log: (message) => console.error(`[bench] ${message}`),
  });
  console.log(JSON.stringify(rows, null, 2));
}
