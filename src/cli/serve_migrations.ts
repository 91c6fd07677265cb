import { migrate, migrationStatus, type NamespaceStatus } from "../migrate/mod.ts";
import { CliError, type CliIo } from "./command.ts";
import { adapterLabel, adaptersOf, bindingLabel } from "./database_report.ts";
import type { DatabaseBinding } from "./user_files/mod.ts";

/** Options of {@link prepareDatabasesForServe}. */
export interface PrepareOptions {
  /** `serve --migrate`: apply pending migrations on a PostgreSQL server too. */
  migrate: boolean;
}

/**
 * Brings the databases of the served modules to their latest versions before the server starts:
 * the embedded PGlite database is migrated (and the output says which steps ran); a PostgreSQL
 * server is migrated only with `--migrate`, otherwise pending migrations stop the start with a
 * message saying how to apply them. A database ahead of the code or with an edited step always
 * stops the start.
 */
export async function prepareDatabasesForServe(
  databases: readonly DatabaseBinding[],
  options: PrepareOptions,
  io: CliIo,
): Promise<void> {
  for (const adapter of adaptersOf(databases)) {
    const bindings = databases.filter((d) => d.adapter === adapter);
    const statuses = await migrationStatus(adapter, bindings);
    const where = adapterLabel(adapter);
    const broken = statuses.flatMap((s, i) =>
      s.status === "ahead" || s.status === "drift"
        ? [`${bindingLabel(bindings[i])}: ${problem(s)}`]
        : []
    );
    if (broken.length > 0) {
      throw new CliError(`cannot serve on ${where}: ${broken.join("; ")}`);
    }
    const pending = statuses.flatMap((s, i) => s.status === "pending" ? [bindings[i]] : []);
    if (pending.length === 0) {
      io.stdout(`Database ${where} is up to date: ${versions(bindings, statuses)}\n`);
      continue;
    }
    if (adapter.kind === "postgres" && !options.migrate) {
      const list = statuses.flatMap((s, i) =>
        s.status === "pending"
          ? [`${bindingLabel(bindings[i])} ${s.databaseVersion} → ${s.codeVersion}`]
          : []
      );
      throw new CliError(
        `${where} has pending migrations (${list.join(", ")}); apply them with ` +
          `"fragment-cli db migrate <file>", or start with --migrate to apply them now`,
      );
    }
    io.stdout(`Applying migrations to ${where}:\n`);
    for (const binding of pending) {
      const result = await migrate(adapter, binding.schema, { namespace: binding.namespace });
      io.stdout(
        result.status === "applied"
          ? `  ${bindingLabel(binding)}: version ${result.from} → ${result.to} ` +
            `(${result.applied.map((s) => s.description).join(", ")})\n`
          : `  ${bindingLabel(binding)}: already at version ${result.to}\n`,
      );
    }
  }
}

function problem(status: NamespaceStatus): string {
  return status.status === "ahead"
    ? `the database is at version ${status.databaseVersion}, ahead of the code ` +
      `(latest ${status.codeVersion})`
    : `step ${status.drift} was changed after it was applied (drift)`;
}

function versions(bindings: readonly DatabaseBinding[], statuses: readonly NamespaceStatus[]) {
  return statuses.map((s, i) => `${bindingLabel(bindings[i])} v${s.databaseVersion}`).join(", ");
}
