// The unit suites do not wait on the wall clock: no sleep over 100 ms (docs/development.md, "Time
// in tests"). Expiries, leases and due times are moved on the database's clock, schedules on
// `durableHooks({ now })`. Suites that drive real processes or browsers (reliability, bench,
// package, browser, `*_processes.test.ts`) and the process scripts of tests/fixtures/ are not
// scanned.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The longest real wait a unit test may take, in milliseconds. */
const LONGEST_WAIT_MS = 100;

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NOT_UNIT = ["tests/reliability/", "tests/bench/", "tests/package/", "tests/browser/"];
const SELF = "tests/docs/no_long_sleeps.test.ts";

const NUMBER = String.raw`[0-9][0-9_]*(?:\.[0-9]+)?`;
const DURATION = String.raw`(${NUMBER}|[A-Za-z_$][\w$]*)`;
/** A timer that resolves a promise (`setTimeout(resolve, ms)`), or a wait helper given ms. */
const MS_WAITS = [
  new RegExp(String.raw`setTimeout\(\s*[A-Za-z_$][\w$]*\s*,\s*${DURATION}\s*\)`, "g"),
  new RegExp(String.raw`\b(?:sleep|delay|pause|wait)\(\s*${DURATION}\s*\)`, "g"),
];
/** PostgreSQL's sleep, in seconds. */
const PG_SLEEP = new RegExp(String.raw`pg_sleep\(\s*(${NUMBER})\s*\)`, "g");

/** A wait over the limit: where, and how long. */
export interface LongWait {
  line: number;
  ms: number;
  text: string;
}

/**
 * The waits over {@link LONGEST_WAIT_MS} in a test file's source: literal durations, or constants
 * the file declares (`const PAUSE_MS = 500`), given to a timer that resolves a promise, to a
 * `sleep`/`delay`/`pause`/`wait` helper or to `pg_sleep`. A timer raced against what a test waits
 * for (`Promise.race`) bounds a wait rather than being one, and is not counted.
 */
export function longWaits(source: string): LongWait[] {
  const constants = new Map<string, number>();
  for (const match of source.matchAll(new RegExp(String.raw`const (\w+) = (${NUMBER});`, "g"))) {
    constants.set(match[1], toNumber(match[2]));
  }
  const found: LongWait[] = [];
  source.split("\n").forEach((text, index) => {
    const code = text.trim();
    if (code.startsWith("//") || code.startsWith("*") || code.includes("Promise.race")) return;
    const durations: number[] = [];
    for (const pattern of MS_WAITS) {
      for (const match of code.matchAll(pattern)) {
        const ms = /^[0-9]/.test(match[1]) ? toNumber(match[1]) : constants.get(match[1]);
        if (ms !== undefined) durations.push(ms);
      }
    }
    for (const match of code.matchAll(PG_SLEEP)) durations.push(toNumber(match[1]) * 1000);
    for (const ms of durations) {
      if (ms > LONGEST_WAIT_MS) found.push({ line: index + 1, ms, text: code });
    }
  });
  return found;
}

function toNumber(literal: string): number {
  return Number(literal.replaceAll("_", ""));
}

/** The unit suites' TypeScript files, relative to the checkout, `/`-separated. */
function unitSuiteFiles(dir = join(ROOT, "tests")): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const name = relative(ROOT, path).split("\\").join("/");
    if (entry.isDirectory()) {
      if (name === "tests/fixtures" || NOT_UNIT.some((d) => `${name}/` === d)) continue;
      files.push(...unitSuiteFiles(path));
    } else if (name.endsWith(".ts") && !name.endsWith("_processes.test.ts") && name !== SELF) {
      files.push(name);
    }
  }
  return files;
}

describe("no long sleeps in the unit suites", () => {
  it("finds literal and constant waits over 100 ms, in ms or pg_sleep seconds, and only those", () => {
    const source = [
      "await new Promise((resolve) => setTimeout(resolve, 1600));",
      "await new Promise((r) => setTimeout(r, 100));",
      "const PAUSE_MS = 250;",
      "await sleep(PAUSE_MS);",
      "await delay(1_000);",
      "await wait(50);",
      'await db.query("SELECT pg_sleep(0.5)");',
      "// await sleep(5000);",
      "await Promise.race([started, new Promise((r) => setTimeout(r, 2000))]);",
      'setTimeout(() => reject(new Error("late")), 5000);',
    ].join("\n");
    assert.deepEqual(longWaits(source).map(({ line, ms }) => ({ line, ms })), [
      { line: 1, ms: 1600 },
      { line: 4, ms: 250 },
      { line: 5, ms: 1000 },
      { line: 7, ms: 500 },
    ]);
  });

  it("no unit-suite file waits over 100 ms", () => {
    const files = unitSuiteFiles();
    assert.ok(files.includes("tests/auth/me_kept.test.ts"), "the scan reaches the suites");
    const offenders = files.flatMap((file) =>
      longWaits(readFileSync(join(ROOT, file), "utf8")).map((wait) =>
        `${file}:${wait.line}: waits ${wait.ms} ms: ${wait.text}`
      )
    );
    assert.deepEqual(
      offenders,
      [],
      `Move time instead of waiting for it (docs/development.md, "Time in tests"):\n${
        offenders.join("\n")
      }`,
    );
  });
});
