import { hasHookTable, hookAdmin, type HookCounts } from "../hooks/mod.ts";
import { migrationStatus, type NamespaceStatus } from "../migrate/mod.ts";
import type { CliIo, CommandArgs } from "./command.ts";
import { explainDataDirInUse } from "./data_dir_in_use.ts";
import { adapterLabel, adaptersOf } from "./database_report.ts";
import {
  allDatabases,
  allModules,
  checkUserFiles,
  closeAdapters,
  findModules,
} from "./user_files/mod.ts";
import { textTable } from "./text_table.ts";

/** One row of `db info`, also its `--json` shape. */
export interface InfoRow {
  module: string;
  /** `null` for a module without a database. */
  namespace: string | null;
  /** Where the data lives (`PGlite …` / `PostgreSQL …`), `null` without a database. */
  database: string | null;
  /** The latest version in the code. */
  codeVersion: number | null;
  /** The version recorded in the database (0 when never migrated). */
  databaseVersion: number | null;
  /** The number of steps `db migrate` would apply. */
  pending: number;
  pendingSteps: { version: number; description: string }[];
  /** The first applied step that was edited since, or null. */
  driftAtStep: number | null;
  status: NamespaceStatus["status"] | "no-database";
  /** The status as the table shows it, e.g. `2 pending`. */
  statusText: string;
  /**
   * The durable hooks of a namespace whose schema has them and whose database has their table:
   * pending, running and failed counts, and the age of the oldest pending one; else `null`.
   */
  hooks: HookCounts | null;
}

/** Runs `db info`; loaded only when the command runs (see `db_info_command.ts`). */
export async function runInfo(args: CommandArgs, io: CliIo): Promise<number> {
  const json = args.values.json === true;
  const [file] = checkUserFiles(args.positionals, { min: 1, max: 1, name: "<file>" });
  // --json keeps stdout pure: warnings, and what the file prints while imported, go to stderr.
  // A file may query its database while imported: the directory can be found held then already.
  const loaded = await explainDataDirInUse(
    `db info ${file.display}`,
    () => findModules([file], io, { need: "modules-or-databases", keepStdoutClean: json }),
  );
  const databases = allDatabases(loaded);
  try {
    return await explainDataDirInUse(`db info ${file.display}`, () => info());
  } finally {
    await closeAdapters(databases);
  }

  async function info(): Promise<number> {
    const rows: InfoRow[] = [];
    for (const adapter of adaptersOf(databases)) {
      const bindings = databases.filter((d) => d.adapter === adapter);
      const statuses = await migrationStatus(adapter, bindings);
      const hooks = await Promise.all(bindings.map(async (binding) => {
        if (!hasHookTable(binding.schema)) return null;
        const admin = hookAdmin({ adapter, namespace: binding.namespace });
        return (await admin.exists()) ? await admin.counts() : null;
      }));
      statuses.forEach((s, i) =>
        rows.push({
          module: bindings[i].moduleName,
          namespace: s.namespace,
          database: adapterLabel(adapter),
          codeVersion: s.codeVersion,
          databaseVersion: s.databaseVersion,
          pending: s.pendingSteps.length,
          pendingSteps: s.pendingSteps,
          driftAtStep: s.drift,
          status: s.status,
          statusText: statusText(s),
          hooks: hooks[i],
        })
      );
    }
    const withDatabase = new Set(databases.map((d) => d.moduleName));
    for (const module of allModules(loaded)) {
      if (module.database !== undefined || withDatabase.has(module.name)) continue;
      rows.push({
        module: module.name,
        namespace: null,
        database: null,
        codeVersion: null,
        databaseVersion: null,
        pending: 0,
        pendingSteps: [],
        driftAtStep: null,
        status: "no-database",
        statusText: "no database",
        hooks: null,
      });
    }
    if (json) {
      io.stdout(`${JSON.stringify({ file: file.display, namespaces: rows }, null, 2)}\n`);
      return 0;
    }
    io.stdout(renderTable(file.display, rows));
    return 0;
  }
}

function renderTable(file: string, rows: readonly InfoRow[]): string {
  const dash = (value: number | string | null): string => value === null ? "-" : String(value);
  const databases = [...new Set(rows.flatMap((r) => (r.database ? [r.database] : [])))];
  const header = ["Module", "Namespace", "Code", "Database", "Pending", "Status"];
  const table = textTable(
    databases.length > 1 ? [...header.slice(0, 5), "Status", "Location"] : header,
    rows.map((r) => {
      const cells = [
        r.module,
        dash(r.namespace),
        dash(r.codeVersion),
        dash(r.databaseVersion),
        r.namespace === null ? "-" : String(r.pending),
        r.statusText,
      ];
      return databases.length > 1 ? [...cells, dash(r.database)] : cells;
    }),
  );
  const pending = rows.reduce((sum, r) => sum + r.pending, 0);
  const lines = [`Modules of ${file}`];
  if (databases.length === 1) lines.push(`Database: ${databases[0]}`);
  let text = `${lines.join("\n")}\n\n${table}`;
  const withHooks = rows.filter((r) => r.hooks !== null);
  if (withHooks.length > 0) {
    text += `\n${withHooks.map((r) => hooksLine(r.namespace!, r.hooks!)).join("\n")}\n`;
  }
  if (pending > 0) {
    text += `\n${pending} pending step${pending === 1 ? "" : "s"}: run ` +
      `"fragment-cli db migrate ${file}" to apply ${pending === 1 ? "it" : "them"}.\n`;
  }
  if (rows.some((r) => r.status === "ahead" || r.status === "drift")) {
    text += `\nA database ahead of the code or with an edited step cannot be migrated: ` +
      `deploy the code that matches it, or restore the edited step.\n`;
  }
  return text;
}

function statusText(status: NamespaceStatus): string {
  switch (status.status) {
    case "up-to-date":
      return "up to date";
    case "pending":
      return `${status.pendingSteps.length} pending`;
    case "ahead":
      return "database ahead";
    case "drift":
      return `drift at step ${status.drift}`;
  }
}

/** `Hooks [messenger]: 3 pending, 0 running, 1 failed, oldest pending 2m 5s`. */
function hooksLine(namespace: string, hooks: HookCounts): string {
  const oldest = hooks.oldestPendingAgeSeconds === null
    ? ""
    : `, oldest pending ${age(hooks.oldestPendingAgeSeconds)}`;
  // Blocked hooks (waiting behind their order key) only when there are any.
  const blocked = hooks.blocked > 0 ? `, ${hooks.blocked} blocked` : "";
  return `Hooks [${namespace}]: ${hooks.pending} pending, ${hooks.running} running, ` +
    `${hooks.failed} failed${blocked}${oldest}`;
}

/** `45s`, `2m 5s`, `3h 12m`, `4d 2h`: the two largest units. */
function age(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}
