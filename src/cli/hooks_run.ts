import {
  hasHookTable,
  type HookAdmin,
  hookAdmin,
  type HookOccurrence,
  type OccurrenceWithErrors,
} from "../hooks/mod.ts";
import type { JsonValue } from "../schema/mod.ts";
import type { ModuleInstance } from "../core/mod.ts";
import { CliError, type CliIo, type CommandArgs, UsageError } from "./command.ts";
import { explainDataDirInUse } from "./data_dir_in_use.ts";
import { adapterLabel, adaptersOf, bindingLabel } from "./database_report.ts";
import {
  allDatabases,
  allModules,
  checkUserFiles,
  closeAdapters,
  type DatabaseBinding,
  findModules,
} from "./user_files/mod.ts";
import { type HooksRequest, parseHooksArgs } from "./hooks_args.ts";
import { hooksTable, occurrenceJson, showText } from "./hooks_output.ts";

/** A namespace of the file that has durable hooks, with what operates them. */
export interface HookNamespace {
  binding: DatabaseBinding;
  admin: HookAdmin;
  /** The `describe()` of the module's hooks (e.g. the messenger's stored update), if found. */
  describe?: (occurrence: HookOccurrence) => Promise<JsonValue | null>;
}

/** Runs `hooks`; loaded only when the command runs (see `hooks_command.ts`). */
export async function runHooks(args: CommandArgs, io: CliIo): Promise<number> {
  const request = parseHooksArgs(args);
  const [file] = checkUserFiles([request.file], { min: 1, max: 1, name: "<file>" });
  const command = `hooks ${file.display} ${request.subcommand}`;
  // A file may query its database while imported: the directory can be found held then already.
  const loaded = await explainDataDirInUse(
    command,
    () => findModules([file], io, { need: "databases", keepStdoutClean: request.json }),
  );
  const databases = allDatabases(loaded);
  try {
    const namespaces = hookNamespaces(file.display, databases, allModules(loaded), request);
    return await explainDataDirInUse(
      command,
      async () => {
        const migrated = await migratedOnly(namespaces, file.display, io);
        return await SUBCOMMANDS[request.subcommand](request, migrated, io);
      },
    );
  } finally {
    await closeAdapters(databases);
  }
}

type Subcommand = (
  request: HooksRequest,
  namespaces: HookNamespace[],
  io: CliIo,
) => Promise<number>;

const SUBCOMMANDS: Record<HooksRequest["subcommand"], Subcommand> = {
  async list(request, namespaces, io) {
    const found: { namespace: string; occurrence: HookOccurrence }[] = [];
    for (const ns of namespaces) {
      const occurrences = await ns.admin.list({ status: request.status, limit: request.limit });
      for (const occurrence of occurrences) {
        found.push({ namespace: ns.binding.namespace, occurrence });
      }
    }
    // Newest first across namespaces, then the limit over all of them.
    found.sort((a, b) =>
      b.occurrence.createdAt.getTime() - a.occurrence.createdAt.getTime() ||
      Number(BigInt(b.occurrence.id) - BigInt(a.occurrence.id))
    );
    const shown = found.slice(0, request.limit);
    if (request.json) {
      const hooks = shown.map((f) => occurrenceJson(f.namespace, f.occurrence));
      io.stdout(`${JSON.stringify({ file: request.file, hooks }, null, 2)}\n`);
      return 0;
    }
    const where = adaptersOf(namespaces.map((n) => n.binding)).map(adapterLabel).join(", ");
    let text = `Hooks of ${request.file}${where ? ` (${where})` : ""}` +
      (request.status ? `, status ${request.status}` : "") + "\n\n";
    if (shown.length === 0) {
      text += "No hooks found.\n";
    } else {
      text += hooksTable(shown);
      text += found.length > shown.length
        ? `\nThe newest ${shown.length} shown; raise --limit for more.\n`
        : `\n${shown.length} hook${shown.length === 1 ? "" : "s"}, newest first.\n`;
    }
    io.stdout(text);
    return 0;
  },

  async show(request, namespaces, io) {
    const [id] = request.ids;
    const [{ ns, occurrence }] = await resolve(request, namespaces, [id]);
    const details = ns.describe ? await ns.describe(occurrence) : null;
    if (request.json) {
      const hook = {
        ...occurrenceJson(ns.binding.namespace, occurrence),
        module: ns.binding.moduleName,
        payload: occurrence.payload,
        errors: occurrence.errors.map((e) => ({ ...e, at: e.at.toISOString() })),
        details,
      };
      io.stdout(`${JSON.stringify({ file: request.file, hook }, null, 2)}\n`);
      return 0;
    }
    io.stdout(showText(request.file, ns.binding, occurrence, details));
    return 0;
  },

  async retry(request, namespaces, io) {
    if (request.allFailed) {
      const retried: { namespace: string; id: string }[] = [];
      for (const ns of namespaces) {
        const ids = await ns.admin.retryFailed();
        retried.push(...ids.map((id) => ({ namespace: ns.binding.namespace, id })));
      }
      return report(io, request, "retried", retried, []);
    }
    return await changeIds(request, namespaces, io, "retried", (admin, ids) => admin.retry(ids));
  },

  async cancel(request, namespaces, io) {
    return await changeIds(
      request,
      namespaces,
      io,
      "cancelled",
      (admin, ids) => admin.cancel(ids),
    );
  },

  async purge(request, namespaces, io) {
    const purged: Record<string, number> = {};
    let total = 0;
    for (const ns of namespaces) {
      const n = await ns.admin.purgeDone(request.olderThanMs);
      purged[ns.binding.namespace] = n;
      total += n;
    }
    if (request.json) {
      io.stdout(
        `${
          JSON.stringify(
            { file: request.file, olderThan: request.olderThan, purged, total },
            null,
            2,
          )
        }\n`,
      );
      return 0;
    }
    const per = Object.entries(purged).map(([ns, n]) => `${ns}: ${n}`).join(", ");
    io.stdout(
      `Purged ${total} done hook${total === 1 ? "" : "s"} finished ${request.olderThan} ago or ` +
        `earlier (${per})\n`,
    );
    return 0;
  },
};

/** Retries or cancels given ids, each in the one namespace that has it. */
async function changeIds(
  request: HooksRequest,
  namespaces: HookNamespace[],
  io: CliIo,
  verb: "retried" | "cancelled",
  apply: (admin: HookAdmin, ids: string[]) => ReturnType<HookAdmin["retry"]>,
): Promise<number> {
  const resolved = await resolve(request, namespaces, request.ids);
  const changed: { namespace: string; id: string }[] = [];
  const unchanged: { namespace: string; id: string; status: string }[] = [];
  for (const ns of namespaces) {
    const ids = resolved.filter((r) => r.ns === ns).map((r) => r.occurrence.id);
    if (ids.length === 0) continue;
    const result = await apply(ns.admin, ids);
    if (result.unknown.length > 0) {
      // Deleted (purged) between the look-up and the change.
      throw new CliError(`no hook occurrence ${result.unknown[0]} in ${request.file}`);
    }
    const namespace = ns.binding.namespace;
    changed.push(...result.changed.map((id) => ({ namespace, id })));
    unchanged.push(...result.unchanged.map((u) => ({ namespace, ...u })));
  }
  return report(io, request, verb, changed, unchanged);
}

function report(
  io: CliIo,
  request: HooksRequest,
  verb: "retried" | "cancelled",
  changed: { namespace: string; id: string }[],
  unchanged: { namespace: string; id: string; status: string }[],
): number {
  if (request.json) {
    io.stdout(`${JSON.stringify({ file: request.file, [verb]: changed, unchanged }, null, 2)}\n`);
    return 0;
  }
  const label = (r: { namespace: string; id: string }): string => `${r.id} [${r.namespace}]`;
  const lines: string[] = [];
  const Verb = verb === "retried" ? "Retried" : "Cancelled";
  if (changed.length > 0) {
    lines.push(
      `${Verb} ${changed.length} hook${changed.length === 1 ? "" : "s"}: ` +
        changed.map(label).join(", "),
    );
  } else {
    lines.push(
      request.allFailed ? "No failed hooks to retry" : `No hook ${verb}`,
    );
  }
  for (const u of unchanged) {
    lines.push(`Left alone: ${label(u)} is ${u.status}` + whyLeft(verb, u.status));
  }
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}

function whyLeft(verb: "retried" | "cancelled", status: string): string {
  if (verb === "retried") {
    return status === "done" ? " (it succeeded)" : " (only failed or cancelled hooks are retried)";
  }
  return status === "cancelled" ? " already" : " (only unfinished or failed hooks are cancelled)";
}

/**
 * Finds the namespace of each id: exit 1 with one line for an id that no namespace has, or that
 * several have (ids are per namespace: `--namespace` picks one).
 */
async function resolve(
  request: HooksRequest,
  namespaces: HookNamespace[],
  ids: readonly string[],
): Promise<{ ns: HookNamespace; occurrence: OccurrenceWithErrors }[]> {
  const resolved: { ns: HookNamespace; occurrence: OccurrenceWithErrors }[] = [];
  for (const id of ids) {
    const found: { ns: HookNamespace; occurrence: OccurrenceWithErrors }[] = [];
    for (const ns of namespaces) {
      const occurrence = await ns.admin.get(id);
      if (occurrence) found.push({ ns, occurrence });
    }
    if (found.length === 0) {
      const where = request.namespace === undefined
        ? `${request.file}`
        : `namespace "${request.namespace}" of ${request.file}`;
      throw new CliError(`no hook occurrence ${id} in ${where}`);
    }
    if (found.length > 1) {
      throw new CliError(
        `hook occurrence ${id} exists in ${found.length} namespaces ` +
          `(${found.map((f) => f.ns.binding.namespace).join(", ")}): pick one with --namespace`,
      );
    }
    resolved.push(found[0]);
  }
  return resolved;
}

/** The namespaces of the file whose schema has the hook table (and `--namespace`'s, if given). */
function hookNamespaces(
  file: string,
  databases: readonly DatabaseBinding[],
  modules: readonly ModuleInstance[],
  request: HooksRequest,
): HookNamespace[] {
  const withHooks = databases.filter((d) => hasHookTable(d.schema));
  if (withHooks.length === 0) {
    throw new CliError(
      `no module with durable hooks in ${file} (a schema with withHookTable()); modules with a ` +
        `database: ${databases.map(bindingLabel).join(", ")}`,
    );
  }
  const chosen = request.namespace === undefined
    ? withHooks
    : withHooks.filter((d) => d.namespace === request.namespace);
  if (chosen.length === 0) {
    throw new UsageError(
      `no namespace "${request.namespace}" with hooks in ${file}; namespaces with hooks: ` +
        withHooks.map((d) => d.namespace).join(", "),
    );
  }
  return chosen.map((binding) => ({
    binding,
    admin: hookAdmin({ adapter: binding.adapter, namespace: binding.namespace }),
    describe: describerOf(binding, modules),
  }));
}

/**
 * The `describe()` of the durable hooks a module of the file runs in the binding's namespace:
 * its `background` or its `hooks` (the messenger has both), on the binding's database.
 */
function describerOf(
  binding: DatabaseBinding,
  modules: readonly ModuleInstance[],
): HookNamespace["describe"] {
  for (const module of modules) {
    if (module.database?.adapter !== binding.adapter) continue;
    const candidates = [module.background, (module as { hooks?: unknown }).hooks];
    for (const candidate of candidates) {
      const hooks = candidate as { namespace?: unknown; describe?: unknown } | undefined;
      if (hooks?.namespace === binding.namespace && typeof hooks.describe === "function") {
        const describe = hooks.describe as NonNullable<HookNamespace["describe"]>;
        return (occurrence) => describe.call(hooks, occurrence);
      }
    }
  }
  return undefined;
}

/** Drops (with a warning) the namespaces whose database has no hook table yet. */
async function migratedOnly(
  namespaces: HookNamespace[],
  file: string,
  io: CliIo,
): Promise<HookNamespace[]> {
  const migrated: HookNamespace[] = [];
  for (const ns of namespaces) {
    if (await ns.admin.exists()) {
      migrated.push(ns);
    } else {
      io.stderr(
        `warning: ${bindingLabel(ns.binding)}: its hook table is not in the database yet; run ` +
          `"fragment-cli db migrate ${file}"\n`,
      );
    }
  }
  return migrated;
}
