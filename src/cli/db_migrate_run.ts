import { migrate, migrationStatus, type NamespaceStatus } from "../migrate/mod.ts";
import { CliError, type CliIo, type CommandArgs } from "./command.ts";
import { adapterLabel, adaptersOf, bindingLabel, databasesLine } from "./database_report.ts";
import {
  allDatabases,
  checkUserFiles,
  closeAdapters,
  type DatabaseBinding,
  findModules,
} from "./user_files/mod.ts";
import {
  checkNamespacesExist,
  parseVersionOption,
  versionFor,
  type VersionOption,
} from "./version_option.ts";

/** A namespace with its status and the version to migrate it to. */
interface Plan {
  binding: DatabaseBinding;
  status: NamespaceStatus;
  to: number;
}

/** Runs `db migrate`; loaded only when the command runs (see `db_migrate_command.ts`). */
export async function runMigrate(args: CommandArgs, io: CliIo): Promise<number> {
  const from = parseVersionOption("--from", args.values.from);
  const to = parseVersionOption("--to", args.values.to);
  const [file] = checkUserFiles(args.positionals, { min: 1, max: 1, name: "<file>" });
  const loaded = await findModules([file], io, { need: "databases" });
  const databases = allDatabases(loaded);
  try {
    checkNamespacesExist(from, databases.map((d) => d.namespace));
    checkNamespacesExist(to, databases.map((d) => d.namespace));
    io.stdout(`${databasesLine(file.display, databases)}\n`);
    const plans = await planAll(databases, from, to);
    if (plans.every((p) => p.to === p.status.databaseVersion)) {
      io.stdout(
        `No migrations needed: ${
          plans.map((p) => `${bindingLabel(p.binding)} is at version ${p.to}`).join(", ")
        }\n`,
      );
      return 0;
    }
    let migrated = 0;
    for (const adapter of adaptersOf(databases)) {
      io.stdout(`Migrating ${adapterLabel(adapter)}\n`);
      for (const plan of plans.filter((p) => p.binding.adapter === adapter)) {
        const { binding } = plan;
        const result = await migrate(adapter, binding.schema, {
          namespace: binding.namespace,
          to: plan.to,
          expectedFrom: versionFor(from, binding.namespace),
        });
        if (result.status === "applied") {
          migrated++;
          io.stdout(
            `  ✓ ${bindingLabel(binding)}: version ${result.from} → ${result.to}\n` +
              result.applied.map((s) => `      step ${s.version}: ${s.description}\n`).join(""),
          );
        } else {
          io.stdout(`  ${bindingLabel(binding)}: already at version ${result.to}\n`);
        }
      }
    }
    io.stdout(
      migrated === 0
        ? "No migrations needed: another migrator applied them meanwhile\n"
        : `Migrated ${migrated} namespace${migrated === 1 ? "" : "s"}\n`,
    );
    return 0;
  } finally {
    await closeAdapters(databases);
  }
}

/**
 * Reads every namespace's status and checks every option against it BEFORE anything is applied,
 * so a wrong `--from` or `--to` on one namespace leaves all of them untouched.
 */
async function planAll(
  databases: readonly DatabaseBinding[],
  from: VersionOption | undefined,
  to: VersionOption | undefined,
): Promise<Plan[]> {
  const plans: Plan[] = [];
  const problems: string[] = [];
  for (const adapter of adaptersOf(databases)) {
    const bindings = databases.filter((d) => d.adapter === adapter);
    const statuses = await migrationStatus(adapter, bindings);
    statuses.forEach((status, i) => {
      const binding = bindings[i];
      const label = bindingLabel(binding);
      const target = versionFor(to, binding.namespace) ?? status.codeVersion;
      const expected = versionFor(from, binding.namespace);
      if (status.status === "ahead") {
        problems.push(
          `${label}: the database is at version ${status.databaseVersion}, ahead of the code ` +
            `(latest ${status.codeVersion})`,
        );
      } else if (status.status === "drift") {
        problems.push(
          `${label}: step ${status.drift} was changed after it was applied; schema steps are ` +
            `append-only, add a new step instead`,
        );
      } else if (expected !== undefined && expected !== status.databaseVersion) {
        problems.push(
          `${label}: the database is at version ${status.databaseVersion}, not at version ` +
            `${expected} as --from says`,
        );
      } else if (target > status.codeVersion) {
        problems.push(
          `${label}: cannot migrate to version ${target}, the latest version is ` +
            `${status.codeVersion}`,
        );
      } else if (target < status.databaseVersion) {
        problems.push(
          `${label}: cannot migrate down from version ${status.databaseVersion} to ${target} ` +
            `(there are no down migrations)`,
        );
      }
      plans.push({ binding, status, to: target });
    });
  }
  if (problems.length > 0) {
    throw new CliError(`${problems.join("; ")}; nothing applied`);
  }
  return plans;
}
