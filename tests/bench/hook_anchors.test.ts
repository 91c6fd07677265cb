/**
 * Scenario 10 of `deno task bench` (durable hooks against pg-boss and Graphile Worker) end to end
 * at a tiny size (`--quick --only 10`: 200 jobs, 100 jobs a second for 1 s), so its scripts cannot
 * rot: every row is measured for ours and for each anchor configuration, and compared with the
 * faster anchor. Only the shape is asserted, never a figure. Deno only (the bench drives Node
 * itself).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBench } from "../helpers/run_bench.ts";

interface JsonRow {
  scenario: number;
  name: string;
  unit: string;
  ours: number;
  reference: number | null;
  referenceName: string;
  ratio: number | null;
  pass: boolean | null;
  note?: string;
}

const ROWS = [
  "enqueue, 16 concurrent callers",
  "enqueue, batches of 1,000",
  "drain, 1 worker process",
  "drain, 2 worker processes",
  "enqueue → start across processes, p50",
  "enqueue → start across processes, p99",
];

const ANCHORS = ["pg-boss", "pg-boss tuned", "Graphile", "Graphile tuned"];

describe("deno task bench --quick --only 10", () => {
  it("measures ours and every anchor configuration on each row, against the faster anchor", {
    timeout: 240_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-anchors-"));
    try {
      const jsonFile = join(dir, "bench.json");
      const { code, stderr } = await runBench([
        "--quick",
        "--only",
        "10",
        "--json",
        jsonFile,
      ]);
      assert.equal(code, 0, `bench exited ${code}\n${stderr.slice(-4000)}`);
      const report = JSON.parse(readFileSync(jsonFile, "utf8"));
      assert.deepEqual(report.failures, []);
      const rows: JsonRow[] = report.rows;
      assert.deepEqual(rows.map((row) => row.name), ROWS);
      for (const row of rows) {
        assert.equal(row.scenario, 10);
        assert.ok(Number.isFinite(row.ours) && row.ours > 0, `${row.name}: ours ${row.ours}`);
        assert.ok(ANCHORS.includes(row.referenceName), `${row.name}: ${row.referenceName}`);
        // The reference is the best anchor figure of the note, and the ratio is ours over it.
        // "≥" marks a latency that is only a lower bound (jobs not started when the run ended),
        // never the faster anchor while another anchor has a full figure.
        const matches = [
          ...row.note!.matchAll(
            /(ours|pg-boss tuned|pg-boss|Graphile tuned|Graphile) (≥?)([\d.]+)/g,
          ),
        ];
        const figures = Object.fromEntries(matches.map((m) => [m[1], Number(m[3])]));
        assert.deepEqual(Object.keys(figures).sort(), ["ours", ...ANCHORS].sort(), row.note);
        const full = ANCHORS.filter((name) => !matches.some((m) => m[1] === name && m[2]));
        const anchorFigures = (full.length > 0 ? full : ANCHORS).map((name) => figures[name]);
        const best = row.unit === "ms" ? Math.min(...anchorFigures) : Math.max(...anchorFigures);
        assert.equal(figures[row.referenceName], best, `${row.name}: ${row.note}`);
        assert.ok(Math.abs(row.ratio! - row.ours / row.reference!) < 1e-9);
        assert.equal(typeof row.pass, "boolean");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
