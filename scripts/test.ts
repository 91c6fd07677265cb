/**
 * `deno task test`: runs the checks, then the whole suite under Deno, Node (≥ 22, from npm) and
 * Bun (from npm), and ends with one line `N passed, N failed`. Any failure on any runtime fails
 * the task.
 *
 * Node runs the `.ts` sources directly (type stripping) and resolves bare specifiers from the
 * `node_modules` Deno creates (`nodeModulesDir: "auto"`); Bun does the same.
 *
 * Usage: deno task test [--runtime deno|node|bun]... [--skip-check] [test files or folders…]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";

type Runtime = "deno" | "node" | "bun";
interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Folders whose tests run only under Deno (they drive Node and Bun themselves). */
const DENO_ONLY = ["tests/package/", "tests/bench/", "tests/reliability/processes/"];

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: {
    runtime: { type: "string", multiple: true },
    "skip-check": { type: "boolean" },
  },
  allowPositionals: true,
});
const runtimes = (values.runtime ?? ["deno", "node", "bun"]) as Runtime[];
const files = testFiles(positionals.length > 0 ? positionals : ["tests"]);
const reports = mkdtempSync(join(tmpdir(), "fragment-cli-test-"));

if (!values["skip-check"]) {
  const code = await run(process.execPath, ["task", "check"]);
  if (code !== 0) {
    console.log("0 passed, 1 failed");
    console.error("deno task check failed");
    process.exit(1);
  }
}

// The runners' dot reporters hide what a test file prints: say here why browser tests will skip.
if (files.some((f) => f.startsWith("tests/browser/"))) {
  const { NO_BROWSER } = await import("../tests/helpers/chromium_path.ts");
  if (NO_BROWSER) console.log(`Skipping the browser tests (tests/browser/): ${NO_BROWSER}`);
}

const results: Record<string, Counts & { code: number }> = {};
for (const runtime of runtimes) {
  const own = runtime === "deno"
    ? files
    : files.filter((f) => !DENO_ONLY.some((d) => f.startsWith(d)));
  const junit = join(reports, `${runtime}.xml`);
  console.log(`\n=== ${runtime}: ${own.length} test files ===`);
  const code = await run(...commandFor(runtime, own, junit));
  const counts = parseJunit(junit, runtime);
  // A runner that crashed before writing its report counts as one failure.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  results[runtime] = { ...counts, code };
}

console.log("\n=== summary ===");
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const [runtime, r] of Object.entries(results)) {
  console.log(`${runtime}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
  total.passed += r.passed;
  total.failed += r.failed;
  total.skipped += r.skipped;
}
console.log(
  `${total.passed} passed, ${total.failed} failed${
    total.skipped > 0 ? `, ${total.skipped} skipped` : ""
  }`,
);
process.exit(total.failed > 0 ? 1 : 0);

function commandFor(runtime: Runtime, files: string[], junit: string): [string, string[]] {
  switch (runtime) {
    case "deno":
      return [process.execPath, [
        "test",
        "-A",
        // deno.json holds only the package's own imports; the tests' are in deno.dev.json.
        "--config",
        "deno.dev.json",
        "--reporter=dot",
        `--junit-path=${junit}`,
        ...files,
      ]];
    case "node":
      return ["npx", [
        "-y",
        "node@22",
        "--test",
        "--test-reporter=dot",
        "--test-reporter-destination=stdout",
        "--test-reporter=junit",
        `--test-reporter-destination=${junit}`,
        ...files,
      ]];
    case "bun":
      return ["npx", [
        "-y",
        "bun@1",
        "test",
        // Bun alone stops a test (and a before/after hook) after 5 s by default; Deno and Node
        // have no such limit, and a loaded machine made PGlite-backed set-ups exceed it.
        "--timeout=120000",
        "--reporter=junit",
        `--reporter-outfile=${junit}`,
        ...files.map((f) => `./${f}`),
      ]];
  }
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: "inherit",
      env: { ...process.env, NPM_CONFIG_LOGLEVEL: "error", NO_COLOR: "1" },
    });
    child.once("error", () => resolve(127));
    child.once("close", (code) => resolve(code ?? 1));
  });
}

function testFiles(roots: string[]): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    } else if (path.endsWith(".test.ts")) {
      found.push(path);
    }
  };
  roots.forEach(walk);
  return found;
}

/** Counts leaf test cases of a JUnit report (Deno also lists each `describe` as a case). */
function parseJunit(path: string, runtime: Runtime): Counts {
  let xml: string;
  try {
    xml = readFileSync(path, "utf8");
  } catch {
    return { passed: 0, failed: 0, skipped: 0 };
  }
  const cases = [
    // Attribute values are matched whole: Node leaves ">" unescaped inside them.
    ...xml.matchAll(/<testcase((?:\s+[\w:-]+="[^"]*")*)\s*(\/>|>([\s\S]*?)<\/testcase>)/g),
  ].map((m) => {
    // A `todo` test runs, but its failure fails no run (node:test's rule; Node still writes a
    // <failure> beside <skipped type="todo">): count it as skipped, as Deno and Bun report it.
    const todo = /<skipped type="todo"/.test(m[3] ?? "");
    return {
      name: decode(/\bname="([^"]*)"/.exec(m[1])?.[1] ?? ""),
      failed: !todo && (/<failure\b/.test(m[3] ?? "") || /\bfailure="/.test(m[1])),
      skipped: /<skipped\b/.test(m[3] ?? ""),
    };
  });
  const leaves = runtime === "deno"
    ? cases.filter((c) => !cases.some((o) => o.name.startsWith(`${c.name} > `)))
    : cases;
  const failed = leaves.filter((c) => c.failed).length;
  const skipped = leaves.filter((c) => !c.failed && c.skipped).length;
  return { passed: leaves.length - failed - skipped, failed, skipped };
}

function decode(text: string): string {
  return text.replaceAll("&gt;", ">").replaceAll("&lt;", "<").replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
}
