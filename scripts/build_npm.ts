/**
 * `deno task build:npm`: builds the npm package `fragment-cli` into `npm/` (git-ignored):
 * ESM JavaScript and `.d.ts` emitted by `tsc` (relative `.ts` imports rewritten to `.js`), a
 * `package.json` with a `fragment-cli` bin and the npm dependencies the sources import (versions
 * from deno.json), README and LICENSE.
 *
 * Type checking is `deno check`'s job (run by `deno task check`); tsc only emits here.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import process from "node:process";

const OUT = "npm";
const TYPESCRIPT = "typescript@5.9";
const denoJson = JSON.parse(readFileSync("deno.json", "utf8"));

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
  "--noCheck",
  "--skipLibCheck",
  "mod.ts",
  "cli.ts",
], { stdio: "inherit", env: { ...process.env, npm_config_loglevel: "error" } });
if (tsc.status !== 0) {
  console.error("tsc failed");
  process.exit(1);
}

// cli.ts starts with a Deno shebang; the npm bin is a Node one.
const cliJs = join(OUT, "esm", "cli.js");
writeFileSync(cliJs, readFileSync(cliJs, "utf8").replace(/^#!.*\n/, ""));
mkdirSync(join(OUT, "bin"), { recursive: true });
const bin = join(OUT, "bin", "fragment-cli.js");
writeFileSync(bin, '#!/usr/bin/env node\nimport "../esm/cli.js";\n');
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
      exports: {
        ".": { types: "./esm/mod.d.ts", import: "./esm/mod.js" },
        "./cli": { types: "./esm/cli.d.ts", import: "./esm/cli.js" },
      },
      bin: { "fragment-cli": "./bin/fragment-cli.js" },
      files: ["esm", "bin", "README.md", "LICENSE"],
      dependencies: npmDependencies(),
    },
    null,
    2,
  ) + "\n",
);
copyFileSync("README.md", join(OUT, "README.md"));
copyFileSync("LICENSE", join(OUT, "LICENSE"));
console.log(`Built ${OUT}/ (fragment-cli ${denoJson.version})`);

/** The npm packages the shipped sources import, with the version ranges of deno.json. */
function npmDependencies(): Record<string, string> {
  const used = new Set<string>();
  for (const file of sourceFiles(["mod.ts", "cli.ts", "src"])) {
    // Only real import statements: JSDoc examples (lines starting with `*`) import the package.
    const statements = /^(?:import|export|\})[^\n*]*?(?:from\s+|import\s*\(\s*)"([^".][^"]*)"/gm;
    for (const match of readFileSync(file, "utf8").matchAll(statements)) {
      const specifier = match[1];
      if (specifier.startsWith("node:")) continue;
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

function sourceFiles(roots: string[]): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) readdirSync(path).forEach((e) => walk(join(path, e)));
    else if (path.endsWith(".ts")) found.push(path);
  };
  roots.forEach(walk);
  return found;
}
