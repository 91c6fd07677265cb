// What `db generate --format drizzle|prisma` writes is usable as it is, for examples/app.ts (every
// shipped module: auth with organizations and Telegram, the messenger, the Telegram outbox) and for
// a user module with every relation shape (tests/fixtures/cli/relations_app.ts): the Drizzle file
// type-checks against drizzle-orm 0.45 and 0.44 (deno.dev.json's `drizzle-orm` and
// `drizzle-orm-0.44`), with the row types a relational query gets; drizzle resolves each of its
// relations to the foreign key's columns; Prisma's own validator accepts the Prisma file.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format, validate } from "@prisma/prisma-schema-wasm";
import { drizzle } from "drizzle-orm/pglite";
import { cliFixture, runCli } from "../helpers/cli_process.ts";
import { DEV_CONFIG, RUNTIME } from "../helpers/spawn_runtime.ts";

const slow = { timeout: 180_000 };
/** The Telegram settings `deno task migrations` reads the app with: every module is on. */
const TELEGRAM_ENV = {
  TELEGRAM_BOT_TOKEN: "1:migrations-only-not-a-bot-token",
  TELEGRAM_BOT_USERNAME: "migrations_bot",
};
const inputs = [
  {
    stem: "app",
    file: fileURLToPath(new URL("../../examples/app.ts", import.meta.url)),
    env: TELEGRAM_ENV,
  },
  { stem: "relations_app", file: cliFixture("relations_app.ts"), env: {} },
];

/**
 * Queries on both files whose row types must come out right: a one-to-one row seen from the
 * referenced table may be absent (`@ts-expect-error` on reading it unchecked), a required foreign
 * key's row is there, the other side of a foreign key is a list. Were the types `any` (drizzle not
 * found), each `@ts-expect-error` would be unused and the check would fail.
 */
const USAGE = `import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as app from "./app.ts";
import * as crm from "./relations_app.ts";

declare const appDb: PgDatabase<PgQueryResultHKT, typeof app>;
declare const crmDb: PgDatabase<PgQueryResultHKT, typeof crm>;

export async function rowTypes(): Promise<void> {
  const user = await appDb.query.authUsers.findFirst({
    with: { telegramAccounts: true, sessions: true },
  });
  if (!user) return;
  // @ts-expect-error a user may have no Telegram account
  user.telegramAccounts.telegram_id;
  const sessions: { user_id: string }[] = user.sessions;

  const account = await crmDb.query.crmAccounts.findFirst({
    with: {
      profiles: true,
      passports: true,
      passportsByIssuedBy: true,
      wallets: true,
      successor: true,
      accountsBySuccessorId: true,
      accounts: true,
      primaryPassport: true,
    },
  });
  if (!account) return;
  // @ts-expect-error through the primary key
  account.profiles.bio;
  // @ts-expect-error through a unique column, beside another foreign key to the same table
  account.passports.id;
  // @ts-expect-error through a unique index
  account.wallets.id;
  // @ts-expect-error self, from the referenced side
  account.accountsBySuccessorId.id;
  // @ts-expect-error self, from the referencing side, nullable column
  account.successor.id;
  // @ts-expect-error nullable column
  account.primaryPassport.id;
  const issued: { issued_by: string }[] = account.passportsByIssuedBy;
  const managed: { manager_id: string | null }[] = account.accounts;

  const passport = await crmDb.query.crmPassports.findFirst({
    with: { holder: true, issuedBy: true, accounts: true },
  });
  if (!passport) return;
  const holder: { email: string } = passport.holder;
  const issuer: { email: string } = passport.issuedBy;
  // @ts-expect-error the two tables reference each other; no account may name this passport
  passport.accounts.id;

  const profile = await crmDb.query.crmProfiles.findFirst({ with: { account: true } });
  const owner: { id: string } | undefined = profile?.account;
  void [sessions, issued, managed, holder, issuer, owner];
}
`;

/** Each relation's `with` query of a generated Drizzle module, built (not run) by drizzle. */
async function relationQueries(file: string): Promise<Map<string, string>> {
  const schema = await import(pathToFileURL(file).href);
  const db = drizzle.mock({ schema });
  const queries = new Map<string, string>();
  for (const [table, config] of Object.entries(db._.schema!)) {
    for (const field of Object.keys(config.relations)) {
      const query = (db.query as Record<string, {
        findFirst(options: unknown): { toSQL(): { sql: string } };
      }>)[table];
      queries.set(`${table}.${field}`, query.findFirst({ with: { [field]: true } }).toSQL().sql);
    }
  }
  return queries;
}

function prismaErrors(text: string): string | undefined {
  try {
    validate(JSON.stringify({ prismaSchema: [["schema.prisma", text]], noColorErrors: true }));
    return undefined;
  } catch (error) {
    return String(error);
  }
}

/** `deno check` of some files of `dir`, with deno.dev.json's imports; its output on failure. */
function denoCheck(dir: string, files: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      "check",
      "--quiet",
      "--config",
      DEV_CONFIG,
      ...files.map((f) => join(dir, f)),
    ], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

describe("db generate of examples/app.ts and of a module with every relation shape", () => {
  let dir: string;
  before(async () => {
    // Inside the project, so that the generated files' "drizzle-orm" resolves on every runtime.
    dir = await mkdtemp(fileURLToPath(new URL("./.orm_compile_", import.meta.url)));
    for (const { stem, file, env } of inputs) {
      for (const [format, extension] of [["drizzle", "ts"], ["prisma", "prisma"]]) {
        const out = `${stem}.${extension}`;
        const result = await runCli(["db", "generate", file, "--format", format, "-o", out], {
          cwd: dir,
          env,
        });
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, new RegExp(`^✓ Generated: ${out.replace(".", "\\.")}$`, "m"));
      }
    }
  }, slow);
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("examples/app.ts holds every shipped module", async () => {
    const text = await readFile(join(dir, "app.ts"), "utf8");
    for (const namespace of ["auth", "messenger", "telegram_outbox"]) {
      assert.match(text, new RegExp(`^export const \\w+ = pgSchema\\("${namespace}"\\);$`, "m"));
    }
    for (const table of ["organizations", "members", "telegram_accounts"]) {
      assert.match(text, new RegExp(`= authSchema\\.table\\(\n {2}"${table}",`));
    }
  });

  it("the Drizzle files type-check against drizzle-orm 0.45 and 0.44, row types included", {
    ...slow,
    skip: RUNTIME === "deno"
      ? false
      : "`deno check` gives the same answer whatever runtime starts it: it runs under Deno",
  }, async () => {
    await writeFile(join(dir, "usage.ts"), USAGE);
    // Also the snapshot of tests/migrate/orm_outputs.test.ts: every column type and step,
    // bytea's customType, a composite primary key, self relations.
    await writeFile(
      join(dir, "every_step.ts"),
      await readFile(new URL("__snapshots__/every_step_schema.drizzle.ts.snap", import.meta.url)),
    );
    // The same files with their imports pointed at the 0.44 entry of deno.dev.json.
    const to044 = (text: string) =>
      text.replaceAll(/from "drizzle-orm(\/pg-core)?"/g, 'from "drizzle-orm-0.44$1"')
        .replaceAll(/from "\.\/(\w+)\.ts"/g, 'from "./$1_044.ts"');
    const stems = ["app", "relations_app", "usage", "every_step"];
    for (const stem of stems) {
      const text = await readFile(join(dir, `${stem}.ts`), "utf8");
      await writeFile(join(dir, `${stem}_044.ts`), to044(text));
    }
    assert.match(await readFile(join(dir, "usage_044.ts"), "utf8"), /"drizzle-orm-0\.44\/pg-core"/);
    for (const files of [stems.map((s) => `${s}.ts`), stems.map((s) => `${s}_044.ts`)]) {
      const { code, output } = await denoCheck(dir, files);
      assert.equal(code, 0, `deno check ${files.join(" ")}:\n${output}`);
    }
  });

  it("drizzle resolves every relation, both sides of each foreign key", async () => {
    for (const { stem } of inputs) {
      const file = join(dir, `${stem}.ts`);
      const foreignKeys = (await readFile(file, "utf8")).match(/\bforeignKey\(/g)!.length;
      const queries = await relationQueries(file);
      assert.equal(queries.size, 2 * foreignKeys, stem);
    }
  });

  it("a one-to-one relation from the referenced side joins on the foreign key", async () => {
    const queries = await relationQueries(join(dir, "relations_app.ts"));
    const joins: [string, string][] = [
      ["crmAccounts.profiles", `"crmAccounts_profiles"."account_id" = "crmAccounts"."id"`],
      ["crmAccounts.passports", `"crmAccounts_passports"."holder_id" = "crmAccounts"."id"`],
      ["crmAccounts.wallets", `"crmAccounts_wallets"."account_id" = "crmAccounts"."id"`],
      [
        "crmAccounts.accountsBySuccessorId",
        `"crmAccounts_accountsBySuccessorId"."successor_id" = "crmAccounts"."id"`,
      ],
      [
        "crmPassports.accounts",
        `"crmPassports_accounts"."primary_passport_id" = "crmPassports"."id"`,
      ],
    ];
    for (const [relation, condition] of joins) {
      const sql = queries.get(relation);
      assert.ok(sql?.includes(`where ${condition} limit`), `${relation}: ${sql}`);
    }
  });

  it("Prisma's validator accepts the Prisma files, already formatted", async () => {
    for (const { stem } of inputs) {
      const text = await readFile(join(dir, `${stem}.prisma`), "utf8");
      assert.equal(prismaErrors(text), undefined, stem);
      const formatted = format(
        text,
        JSON.stringify({
          textDocument: { uri: "file:/schema.prisma" },
          options: { tabSize: 2, insertSpaces: true },
        }),
      );
      assert.equal(formatted, text, stem);
    }
  });

  it("Prisma: a one-to-one relation is a single optional field on the referenced side", async () => {
    const text = await readFile(join(dir, "relations_app.prisma"), "utf8");
    const accounts = text.match(/^model Accounts_crm \{\n[^}]*\}/m)![0];
    for (
      const [field, type] of [
        ["profiles", "Profiles_crm?"],
        ["passports", "Passports_crm?"],
        ["passportsByIssuedBy", "Passports_crm[]"],
        ["wallets", "Wallets_crm?"],
        ["accountsBySuccessorId", "Accounts_crm?"],
        ["accounts", "Accounts_crm[]"],
        ["memberships", "Memberships_crm[]"],
      ]
    ) {
      assert.match(
        accounts,
        new RegExp(`^ {2}${field} +${type.replace(/[?[\]]/g, "\\$&")} +@`, "m"),
      );
    }
  });
});
