/**
 * `deno task migrations`: regenerates `migrations/`, the SQL of the first-party modules of
 * examples/app.ts from version 0 to their latest, with `fragment-cli db generate` itself (no
 * database needed). tests/cli/migrations_dir.test.ts fails when the folder is out of date.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

const DIR = "migrations";

for (const file of readdirSync(DIR)) {
  if (file.endsWith(".sql")) rmSync(join(DIR, file));
}
const env = { ...process.env };
delete env.DATABASE_URL;
const result = spawnSync(
  process.execPath,
  [
    "run",
    "-A",
    "--quiet",
    "cli.ts",
    "db",
    "generate",
    "examples/app.ts",
    "--from",
    "0",
    "-o",
    `${DIR}/`,
  ],
  { stdio: "inherit", env },
);
process.exit(result.status ?? 1);
