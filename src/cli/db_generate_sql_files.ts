import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { migrationStatus, renderMigrationFile } from "../migrate/mod.ts";
import { CliError, type CliIo } from "./command.ts";
import { adapterLabel, adaptersOf, bindingLabel } from "./database_report.ts";
import { type DatabaseBinding, displayPath } from "./user_files/mod.ts";
import { lastSequence, outputPaths, type OutputTarget } from "./db_generate_output_path.ts";
import { checkNamespacesExist, versionFor, type VersionOption } from "./version_option.ts";

/** Options of {@link generateSqlMigrations}. */
export interface SqlGenerateOptions {
  from?: VersionOption;
  to?: VersionOption;
  target: OutputTarget;
  /** `--output` as typed, for messages. */
  given: string;
  /** Text (with its newline) put at the top of each file. */
  prefix: string;
  /** The UTC date of the file names. @default today */
  now?: Date;
}

/** One file to write: a namespace from one version to another. */
interface Range {
  binding: DatabaseBinding;
  from: number;
  to: number;
}

/**
 * `db generate --format sql`: one file per namespace that has steps between its starting version
 * (`--from`, else the database's version) and its target (`--to`, else the latest), named
 * `<YYYYMMDD>_<seq>_f<from>_t<to>_<module>.sql`. The database is read only for the namespaces
 * whose `--from` is not given. Resolves to the exit code.
 */
export async function generateSqlMigrations(
  databases: readonly DatabaseBinding[],
  options: SqlGenerateOptions,
  io: CliIo,
): Promise<number> {
  const namespaces = databases.map((d) => d.namespace);
  checkNamespacesExist(options.from, namespaces);
  checkNamespacesExist(options.to, namespaces);
  const ranges = await resolveRanges(databases, options, io);
  const work = ranges.filter((r) => r.from !== r.to);
  if (work.length === 0) {
    io.stdout(
      `Nothing to generate: ${
        ranges.map((r) => `${bindingLabel(r.binding)} is at version ${r.to}`).join(", ")
      }\n`,
    );
    return 0;
  }
  const date = utcDate(options.now ?? new Date());
  const first = options.target.kind === "directory"
    ? lastSequence(options.target.path, date) + 1
    : 1;
  const names = work.map((r, i) =>
    `${date}_${pad(first + i)}_f${pad(r.from)}_t${pad(r.to)}_${r.binding.moduleName}.sql`
  );
  const paths = outputPaths(options.target, names, options.given);
  io.stdout("Generating SQL migrations…\n");
  work.forEach((range, i) => {
    const sql = renderMigrationFile(range.binding.schema, {
      namespace: range.binding.namespace,
      from: range.from,
      to: range.to,
    });
    mkdirSync(dirname(paths[i]), { recursive: true });
    writeFileSync(paths[i], options.prefix + sql);
    io.stdout(`✓ Generated: ${displayPath(paths[i])}\n`);
  });
  io.stdout(`${work.length} file${work.length === 1 ? "" : "s"} generated\n`);
  for (const range of ranges) {
    io.stdout(
      range.from === range.to
        ? `  ${bindingLabel(range.binding)}: already at version ${range.to}, no file\n`
        : `  ${bindingLabel(range.binding)}: version ${range.from} → ${range.to} ` +
          `(latest ${range.binding.schema.version})\n`,
    );
  }
  return 0;
}

async function resolveRanges(
  databases: readonly DatabaseBinding[],
  options: SqlGenerateOptions,
  io: CliIo,
): Promise<Range[]> {
  const fromDatabase = new Map<DatabaseBinding, number>();
  const unknown = databases.filter((d) => versionFor(options.from, d.namespace) === undefined);
  const problems: string[] = [];
  const broken = new Set<DatabaseBinding>();
  for (const adapter of adaptersOf(unknown)) {
    const bindings = unknown.filter((d) => d.adapter === adapter);
    io.stdout(`Reading the current versions from ${adapterLabel(adapter)}\n`);
    const statuses = await migrationStatus(adapter, bindings);
    statuses.forEach((s, i) => {
      if (s.status === "ahead" || s.status === "drift") broken.add(bindings[i]);
      if (s.status === "ahead") {
        problems.push(
          `${bindingLabel(bindings[i])}: the database is at version ${s.databaseVersion}, ` +
            `ahead of the code (latest ${s.codeVersion})`,
        );
      } else if (s.status === "drift") {
        problems.push(
          `${bindingLabel(bindings[i])}: step ${s.drift} was changed after it was applied; ` +
            `schema steps are append-only, add a new step instead`,
        );
      }
      fromDatabase.set(bindings[i], s.databaseVersion);
    });
  }
  const ranges = databases.map((binding) => {
    const latest = binding.schema.version;
    const from = versionFor(options.from, binding.namespace) ?? fromDatabase.get(binding)!;
    const to = versionFor(options.to, binding.namespace) ?? latest;
    const label = bindingLabel(binding);
    if (broken.has(binding)) {
      // Already reported with the database's state.
    } else if (from > latest) {
      problems.push(`${label}: --from ${from} is beyond the latest version ${latest}`);
    } else if (to > latest) {
      problems.push(`${label}: --to ${to} is beyond the latest version ${latest}`);
    } else if (to < from) {
      problems.push(
        `${label}: cannot generate from version ${from} down to ${to} ` +
          `(there are no down migrations)`,
      );
    }
    return { binding, from, to };
  });
  if (problems.length > 0) throw new CliError(`${problems.join("; ")}; nothing generated`);
  return ranges;
}

function pad(n: number): string {
  return String(n).padStart(3, "0");
}

function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll("-", "");
}
