/**
 * The load generator: a child process of the benchmark (run on Node, which autocannon is built
 * for), so the server under test and the client never share an event loop or a core's JIT.
 *
 * One process serves a whole benchmark run (starting one per measurement cost 0.3–0.8 s each,
 * two dozen times in a smoke run). It reads one JSON line per job on stdin,
 * `{"id": n, "spec": LoadSpec}`, runs jobs as they come (the smoke run sends several at once),
 * and answers each with one JSON line on stdout: `{"id": n, "result": LoadResult}` or
 * `{"id": n, "error": "…"}`. It exits when stdin ends.
 *
 * Usage: node scripts/bench/load_generator.ts   (driven by `runLoad()` of `load_client.ts`)
 *
 * @module
 */
import process from "node:process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import type { LoadResult, LoadSpec, PlannedRequest } from "./load_spec.ts";

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const { id, spec } = JSON.parse(line) as { id: number; spec: LoadSpec };
  // Not awaited: jobs sent together run together.
  runJob(spec).then(
    (result) => answer({ id, result }),
    (error) =>
      answer({ id, error: error instanceof Error ? error.stack ?? error.message : `${error}` }),
  );
}

async function runJob(spec: LoadSpec): Promise<LoadResult> {
  const run = spec.mode === "latency" ? sequential : cannon;
  if (spec.warmup.length > 0) await run(spec, spec.warmup);
  return await run(spec, spec.requests);
}

function answer(message: { id: number; result?: LoadResult; error?: string }): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** autocannon over `spec.connections` connections; every planned request is sent once. */
async function cannon(spec: LoadSpec, plan: PlannedRequest[]): Promise<LoadResult> {
  let next = 0;
  const statuses: Record<string, number> = {};
  const started = performance.now();
  // autocannon reports only on its 1 s sampling tick: time the run from the last answer instead.
  let lastAnswer = started;
  const result = await autocannon({
    url: spec.origin,
    connections: Math.max(1, Math.min(spec.connections, plan.length)),
    amount: plan.length,
    timeout: 30,
    // autocannon ends a run on its sampling tick: a short tick keeps short runs short.
    sampleInt: 50,
    headers: { ...spec.headers, "content-type": "application/json" },
    requests: [{
      // Called as each request is written: hands out the plan in order, across connections.
      setupRequest: (request: Record<string, unknown>) => {
        const planned = plan[next++ % plan.length];
        return {
          ...request,
          method: planned.method,
          path: planned.path,
          body: planned.body,
          headers: planned.headers
            ? { ...(request.headers as Record<string, string>), ...planned.headers }
            : request.headers,
        };
      },
      onResponse: (status: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        lastAnswer = performance.now();
      },
    }],
  });
  const seconds = (lastAnswer - started) / 1000;
  const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    requests: answered,
    seconds,
    requestsPerSecond: answered / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
  };
}

/** One request at a time with fetch, each timed with `performance.now()` (µs resolution). */
async function sequential(spec: LoadSpec, plan: PlannedRequest[]): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + (spec.budgetSeconds ?? Infinity) * 1000;
  for (const planned of plan) {
    if (latencies.length >= 20 && performance.now() > deadline) break;
    const sent = performance.now();
    try {
      const response = await fetch(spec.origin + planned.path, {
        method: planned.method,
        headers: { ...spec.headers, "content-type": "application/json", ...planned.headers },
        body: planned.body,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    } catch {
      errors++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    statuses,
    errors,
  };
}
