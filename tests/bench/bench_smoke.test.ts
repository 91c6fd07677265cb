/**
 * `deno task bench --quick` end to end, so the benchmark scripts cannot rot: every scenario of
 * issue 9 must produce its rows with measured figures. Only the shape is asserted — the smoke
 * run's figures mean nothing and no timing is checked. Deno only (the bench drives Node and Bun
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
  ours: number;
  reference: number | null;
  ratio: number | null;
  pass: boolean | null;
}

/** Scenarios of the issue and how many rows each prints (at least). */
const EXPECTED_ROWS: Record<number, number> = {
  1: 2,
  2: 4,
  3: 2,
  4: 6,
  5: 6,
  6: 2,
  7: 4,
  8: 1,
  9: 2,
  11: 3,
  12: 5,
};

describe("deno task bench --quick", () => {
  it("prints one table with measured rows for every scenario and writes the same as JSON", {
    timeout: 240_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-smoke-"));
    try {
      const jsonFile = join(dir, "bench.json");
      const { code, stdout, stderr } = await runBench([
        "--quick",
        // Scenario 10 (against pg-boss and Graphile Worker) starts some 30 processes, a couple of
        // minutes on 2 cores: tests/bench/hook_anchors.test.ts runs it alone.
        "--only",
        Object.keys(EXPECTED_ROWS).join(","),
        "--json",
        jsonFile,
      ]);
      assert.equal(code, 0, `bench exited ${code}\n${stderr.slice(-4000)}`);

      const report = JSON.parse(readFileSync(jsonFile, "utf8"));
      assert.equal(report.quick, true);
      assert.deepEqual(report.failures, []);
      const rows: JsonRow[] = report.rows;
      for (const [scenario, count] of Object.entries(EXPECTED_ROWS)) {
        const own = rows.filter((row) => row.scenario === Number(scenario));
        assert.ok(own.length >= count, `scenario ${scenario}: ${own.length} rows, want ${count}`);
        for (const row of own) {
          assert.ok(Number.isFinite(row.ours) && row.ours >= 0, `${row.name}: ours ${row.ours}`);
          if (row.reference !== null) {
            assert.ok(Number.isFinite(row.reference), `${row.name}: reference ${row.reference}`);
            assert.ok(Number.isFinite(row.ratio), `${row.name}: ratio ${row.ratio}`);
          }
        }
      }

      const lines = stdout.split("\n");
      assert.match(
        lines[0],
        /^\| # +\| scenario +\| ours +\| reference +\| ratio +\| target +\| result +\|$/,
      );
      const tableRows = lines.filter((line) => /^\| \d+ +\|/.test(line));
      assert.equal(tableRows.length, rows.length, "the table and the JSON hold the same rows");
      for (const row of rows) {
        assert.ok(
          tableRows.some((line) =>
            line.includes(row.name) && /\| (pass|FAIL|reported) +\|$/.test(line)
          ),
          `table row for ${row.name}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--help lists the scenarios; a bad option or scenario number is a usage error, not a crash", {
    timeout: 60_000,
  }, async () => {
    const help = await runBench(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: deno task bench/);
    assert.match(help.stdout, /^ +11 +durable hook drain with ordering keys$/m);
    for (const args of [["--bogus"], ["--only", "99"]]) {
      const bad = await runBench(args);
      assert.equal(bad.code, 2, args.join(" "));
      assert.match(bad.stderr, /^bench: /m);
      assert.doesNotMatch(bad.stderr, /Uncaught|\bat file:/);
    }
  });
});
