/**
 * `deno task migrations`: regenerates `migrations/`, the SQL of the first-party modules of
 * examples/app.ts from version 0 to their latest, with `fragment-cli db generate` itself (no
 * database needed). tests/cli/migrations_dir.test.ts fails when the folder is out of date.
 *
 * The app is read with its Telegram settings on (`MIGRATIONS_TELEGRAM_ENV`, a syntactically valid
 * token that is no bot's), so the folder has the outbox's namespace too: the example exports the
 * outbox only when a bot is configured.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

const DIR = "migrations";

for (const file of readdirSync(DIR)) {
  if (file.endsWith(".sql")) rmSync(join(DIR, file));
}
/** The Telegram settings examples/app.ts is read with (no real bot's token). */
const MIGRATIONS_TELEGRAM_ENV = {
  TELEGRAM_BOT_TOKEN: "1:migrations-only-not-a-bot-token",
  TELEGRAM_BOT_USERNAME: "migrations_bot",
};

const env: Record<string, string | undefined> = { ...process.env, ...MIGRATIONS_TELEGRAM_ENV };
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
