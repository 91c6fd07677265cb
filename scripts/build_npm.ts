/**
 * `deno task build:npm`: builds the npm package `fragment-cli` into `npm/` (git-ignored):
 * ESM JavaScript and `.d.ts` emitted by `tsc` (relative `.ts` imports rewritten to `.js`), a
 * `package.json` with a `fragment-cli` bin and the npm dependencies the sources import (versions
 * from deno.json), README and LICENSE; and `esm/generated/docs_index.json`, the offline search
 * index, built from docs/.
 *
 * The bin runs a bundle of what every invocation loads (`cli.js`, the process adapter, the command
 * list and help: one file instead of a dozen, made by esbuild), which imports each command's
 * implementation from the tsc output when the command runs; and it enables Node's compile cache.
 * Both are for start-up time (benchmark scenario 5, docs/benchmarks.md). The bin's shebang names
 * Node (npx, npm scripts); when bunx or `bun run` started it, it runs itself again on that Bun.
 *
 * Type checking is `deno check`'s job (run by `deno task check`); tsc only emits here.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import {
  buildDocsRecords,
  DOCS_INDEX_FILE,
  renderDocsIndexJson,
} from "./site/docs_index_source.ts";

const OUT = "npm";
const TYPESCRIPT = "typescript@5.9";
const ESBUILD = "esbuild@0.25.12";
/** The bin's bundle, in `esm/src/cli/` (see {@link bundleBinEntry}). */
const BIN_BUNDLE = "bin_entry.js";
/** The bin's hand-over to Bun, in `bin/`, loaded only when Bun started the bin under Node. */
const ON_BUN = "on_bun.js";
const denoJson = JSON.parse(readFileSync("deno.json", "utf8"));
/** deno.json's entries (`"./hooks": "./src/hooks/mod.ts"`, …): the npm package has the same. */
const entries: Record<string, string> = denoJson.exports;
/** The optional peer dependencies (name → range), filled by {@link npmDependencies}. */
const peers: Record<string, string> = {};

rmSync(OUT, { recursive: true, force: true });
const tsc = spawnSync("npx", [
  "-y",
  "-p",
  TYPESCRIPT,
  "tsc",
  "--outDir",
  join(OUT, "esm"),
  "--rootDir",
  ".",
  "--module",
  "esnext",
  "--moduleResolution",
  "bundler",
  "--target",
  "es2022",
  "--lib",
  "es2023,dom,dom.iterable",
  "--declaration",
  "--rewriteRelativeImportExtensions",
  "--allowImportingTsExtensions",
  "--resolveJsonModule",
  "--noCheck",
  "--skipLibCheck",
  ...Object.values(entries),
], { stdio: "inherit", env: { ...process.env, npm_config_loglevel: "error" } });
if (tsc.status !== 0) {
  console.error("tsc failed");
  process.exit(1);
}

// The offline index of `fragment-cli search`, rebuilt from docs/ as they are now rather than copied
// from generated/ (tsc copies the JSON modules it meets, maybe a stale one): the package always
// answers from the docs it was built with.
const docsIndex = join(OUT, "esm", DOCS_INDEX_FILE);
mkdirSync(dirname(docsIndex), { recursive: true });
writeFileSync(docsIndex, renderDocsIndexJson(buildDocsRecords("docs")));

// The framework bindings (src/client/react/, …) import their framework by an `npm:` specifier, so
// that deno.json need not map it (every package it maps is installed by `deno task start`): on
// npm, the bare name, resolved from the app's own copy (an optional peer dependency).
rewriteNpmSpecifiers(join(OUT, "esm"));

// cli.ts starts with a Deno shebang; the npm bin is a Node one.
const cliJs = join(OUT, "esm", "cli.js");
writeFileSync(cliJs, readFileSync(cliJs, "utf8").replace(/^#!.*\n/, ""));
bundleBinEntry();
mkdirSync(join(OUT, "bin"), { recursive: true });
const bin = join(OUT, "bin", "fragment-cli.js");
writeFileSync(
  bin,
  `#!/usr/bin/env node
// bunx and \`bun run\` start a bin on the runtime its shebang names, Node: when Bun started this
// one, hand over to Bun, so that \`bunx fragment-cli\` runs on Bun. bunx always says so in
// npm_lifecycle_event; Bun sets npm_config_user_agent and npm_execpath unless already set.
const env = process.env;
const startedByBun = env.npm_lifecycle_event === "bunx" ||
  env.npm_config_user_agent?.startsWith("bun/") || /(^|[\\\\/])bun(\\.exe)?$/i.test(env.npm_execpath ?? "");
if (globalThis.Bun === undefined && startedByBun) {
  await import("./${ON_BUN}");
} else {
  // Node >= 22.3 keeps the code it compiles in a disk cache (os.tmpdir()/node-compile-cache) and
  // reuses it on the next start: only warm starts get faster. Nothing happens on Node 20, which
  // has no compile cache. (process.getBuiltinModule, not an import of node:module: see
  // src/runtime/cli_process.ts on what importing a built-in costs.)
  process.getBuiltinModule?.("node:module").enableCompileCache?.();
  // Imported after enabling the cache (a static import would be loaded before it).
  await import("../esm/src/cli/${BIN_BUNDLE}");
}
`,
);
writeFileSync(
  join(OUT, "bin", ON_BUN),
  `// Runs the bin again on Bun (the one that started it, else the PATH's bun): the same arguments,
// standard streams and exit code; SIGINT, SIGTERM and SIGHUP are passed on
// (serve shuts down gracefully, and a second signal while it does is harmless). When no Bun
// can be started, the bin runs on Node as before.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("./fragment-cli.js", import.meta.url));
// The Bun that started us, else the one on the PATH.
const execpath = process.env.npm_execpath ?? "";
const bun = /(^|[\\\\/])bun(\\.exe)?$/i.test(execpath) ? execpath : "bun";
const child = spawn(bun, [bin, ...process.argv.slice(2)], { stdio: "inherit" });
const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
const pass = (signal) => child.kill(signal);
for (const signal of signals) process.on(signal, pass);
let failed = false;
child.once("error", async () => {
  failed = true;
  for (const signal of signals) process.off(signal, pass);
  await import("../esm/src/cli/${BIN_BUNDLE}");
});
child.once("exit", (code, signal) => {
  if (failed) return;
  for (const s of signals) process.off(s, pass);
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
`,
);
chmodSync(bin, 0o755);

writeFileSync(
  join(OUT, "package.json"),
  JSON.stringify(
    {
      name: "fragment-cli",
      version: denoJson.version,
      description:
        "Modules that bundle Web-standard HTTP routes, a versioned Postgres schema and durable hooks; and the CLI that serves and migrates them.",
      license: denoJson.license,
      type: "module",
      engines: { node: ">=20" },
      exports: npmExports(),
      bin: { "fragment-cli": "./bin/fragment-cli.js" },
      files: ["esm", "bin", "README.md", "LICENSE"],
      dependencies: npmDependencies(),
      peerDependencies: peers,
      peerDependenciesMeta: Object.fromEntries(
        Object.keys(peers).map((name) => [name, { optional: true }]),
      ),
    },
    null,
    2,
  ) + "\n",
);
copyFileSync("README.md", join(OUT, "README.md"));
copyFileSync("LICENSE", join(OUT, "LICENSE"));
console.log(`Built ${OUT}/ (fragment-cli ${denoJson.version})`);

/** deno.json's `exports`, pointing at tsc's output: `./x/mod.ts` → `./esm/x/mod.{d.ts,js}`. */
function npmExports(): Record<string, { types: string; import: string }> {
  return Object.fromEntries(
    Object.entries(entries).map(([subpath, file]) => {
      const base = `./esm/${file.replace(/^\.\//, "").replace(/\.ts$/, "")}`;
      return [subpath, { types: `${base}.d.ts`, import: `${base}.js` }];
    }),
  );
}

/**
 * Bundles what every `fragment-cli` invocation loads into `esm/src/cli/${BIN_BUNDLE}`: on Node and
 * Bun each module file costs a resolution, a read and a compilation, and `--help` loaded 16.
 *
 * The bundle lives next to the command modules because `importRun` (src/cli/import_run.ts)
 * imports `./<command>_run.js` relative to itself. `command.js` stays external: the commands'
 * implementations import it from the tsc output, and `UsageError` must be one class for the
 * `instanceof` check in main.js. esbuild keeps that import as written (`./command.js`), which
 * resolves from the bundle's directory since every importer of it is in src/cli/.
 */
function bundleBinEntry(): void {
  const esm = join(OUT, "esm");
  const esbuild = spawnSync("npx", [
    "-y",
    ESBUILD,
    "cli.js",
    "--bundle",
    "--format=esm",
    "--platform=node",
    "--target=node20",
    "--packages=external",
    "--external:./src/cli/command.js",
    `--outfile=src/cli/${BIN_BUNDLE}`,
    "--log-level=warning",
  ], { cwd: esm, stdio: "inherit", env: { ...process.env, npm_config_loglevel: "error" } });
  if (esbuild.status !== 0) {
    console.error("esbuild failed");
    process.exit(1);
  }
  // Every relative import left in the bundle must exist next to it (see above).
  const bundled = readFileSync(join(esm, "src", "cli", BIN_BUNDLE), "utf8");
  for (const [, specifier] of bundled.matchAll(/\bfrom\s+"(\.[^"]+)"/g)) {
    if (!existsSync(join(esm, "src", "cli", specifier))) {
      throw new Error(`${BIN_BUNDLE} imports ${specifier}, which is not next to it`);
    }
  }
}

/**
 * The npm packages the shipped sources import, with the version ranges of deno.json; those
 * imported as `npm:name@range` (the frameworks of the bindings) go to {@link peers} instead.
 */
function npmDependencies(): Record<string, string> {
  const used = new Set<string>();
  for (const file of sourceFiles(["mod.ts", "cli.ts", "src"])) {
    // Only real imports: JSDoc examples (lines starting with `*`) import the package. Static
    // ones start their line; dynamic ones (drivers loaded on first use) sit inside functions.
    const statements = /^(?:import|export|\})[^\n*]*?(?:from\s+|import\s*\(\s*)"([^".][^"]*)"/gm;
    const dynamic = /^[ \t]+[^*/\s][^\n]*?\bimport\(\s*"([^".][^"]*)"/gm;
    const text = readFileSync(file, "utf8");
    for (const match of [...text.matchAll(statements), ...text.matchAll(dynamic)]) {
      const specifier = match[1];
      if (specifier.startsWith("node:")) continue;
      const peer = /^npm:(@?[^@]+)@(.+)$/.exec(specifier);
      if (peer) {
        peers[peer[1]] = peer[2];
        continue;
      }
      const parts = specifier.split("/");
      used.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
    }
  }
  const dependencies: Record<string, string> = {};
  for (const name of [...used].sort()) {
    const mapped: string | undefined = denoJson.imports[name];
    const match = mapped && /^npm:(@?[^@]+)@(.+)$/.exec(mapped);
    if (!match) throw new Error(`"${name}" is imported but not mapped to npm: in deno.json`);
    dependencies[match[1]] = match[2];
  }
  return dependencies;
}

/** `npm:name@range` imports in the emitted `.js` and `.d.ts` files, made bare (`name`). */
function rewriteNpmSpecifiers(dir: string): void {
  for (const file of sourceFiles([dir], [".js", ".d.ts"])) {
    const text = readFileSync(file, "utf8");
    const bare = text.replace(/(["'])npm:(@?[^@"']+)@[^"']*\1/g, "$1$2$1");
    if (bare !== text) writeFileSync(file, bare);
  }
}

function sourceFiles(roots: string[], endings = [".ts"]): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) readdirSync(path).forEach((e) => walk(join(path, e)));
    else if (endings.some((ending) => path.endsWith(ending))) found.push(path);
  };
  roots.forEach(walk);
  return found;
}
