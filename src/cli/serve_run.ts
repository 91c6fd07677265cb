import { statSync } from "node:fs";
import { AddressInUseError, type ModuleInstance, serve } from "../core/mod.ts";
import { isStaticMountPath } from "../core/static_files.ts";
import { CliError, type CliIo, type CommandArgs, UsageError } from "./command.ts";
import {
  allDatabases,
  checkUserFiles,
  closeAdapters,
  findModules,
  foundLine,
  type LoadedFile,
} from "./user_files/mod.ts";
import { prepareDatabasesForServe } from "./serve_migrations.ts";
import { provideSecret, settleSecret } from "./serve_secret.ts";
import { surviveStraySocketErrors } from "./serve_stray_socket_errors.ts";

/** Runs `serve`; loaded only when the command runs (see `serve_command.ts`). */
export async function runServe(args: CommandArgs, io: CliIo): Promise<number> {
  const port = parsePort(args.values.port);
  const hostname = parseHost(args.values.host);
  const files = checkUserFiles(args.positionals, { min: 1, name: "<file> to serve" });
  const staticDirs = parseStaticDirs(args.lists?.static ?? []);
  // Before the import: modules read FRAGMENT_SECRET when they are instantiated.
  const secret = provideSecret();
  const loaded = await findModules(files, io, { need: "modules" });
  const databases = allDatabases(loaded);
  const stopSurviving = surviveStraySocketErrors(io.stderr);
  try {
    for (const file of loaded) {
      if (file.modules.length > 0) {
        io.stdout(`${foundLine(file, file.modules.map((m) => m.name))}\n`);
      }
    }
    settleSecret(secret, [...new Set(databases.map((d) => d.adapter))], io);
    const modules = modulesWithUniqueMounts(loaded);
    await prepareDatabasesForServe(databases, { migrate: args.values.migrate === true }, io);
    let server;
    try {
      server = await serve(modules, {
        port,
        hostname,
        staticDirs,
        onShutdown: async () => {
          await closeAdapters(databases);
          io.stdout("Server stopped\n");
        },
      });
    } catch (error) {
      if (error instanceof AddressInUseError) throw new CliError(error.message, { cause: error });
      throw error;
    }
    io.stdout(`Server running on ${server.url}\n`);
    for (const module of modules) io.stdout(describeModule(module, server.url));
    for (const [path, dir] of Object.entries(staticDirs ?? {})) {
      const at = path === "/" ? "/" : `${path}/`;
      io.stdout(`\nStatic files\n  Folder: ${dir}\n  At:     ${server.url}${at}\n`);
    }
    io.stdout("\nPress Ctrl-C to stop.\n");
    await server.finished;
    return 0;
  } finally {
    await closeAdapters(databases);
    stopSurviving();
  }
}

function describeModule(module: ModuleInstance, url: string): string {
  const width = Math.max(0, ...module.routes.map((r) => r.method.length));
  const routes = module.routes.map((r) => `    ${r.method.padEnd(width)} ${r.path}\n`).join("");
  return `\n${module.name}\n  Mount:  ${url}${module.mountRoute}\n  Routes:\n` +
    (routes || "    (none)\n") + describeEndpoints(module, url);
}

/**
 * The full URL of each route the module wants registered elsewhere (the messenger's webhook, for
 * `setWebhook`), on its `publicOrigin` when set, else on the address served, with its notes.
 */
function describeEndpoints(module: ModuleInstance, url: string): string {
  return (module.endpoints ?? []).map((endpoint) =>
    `  ${endpoint.label}: ${endpoint.origin ?? url}${endpoint.path}\n` +
    (endpoint.notes ?? []).map((note) => `    ${note}\n`).join("")
  ).join("");
}

/** The modules of all files; two on one mount route is an error naming both files. */
function modulesWithUniqueMounts(loaded: readonly LoadedFile[]): ModuleInstance[] {
  const byMount = new Map<string, { module: ModuleInstance; file: string }>();
  for (const file of loaded) {
    for (const module of file.modules) {
      const other = byMount.get(module.mountRoute);
      if (other) {
        throw new CliError(
          `modules "${other.module.name}" (${other.file}) and "${module.name}" (${file.display}) ` +
            `are both mounted on ${module.mountRoute}`,
        );
      }
      byMount.set(module.mountRoute, { module, file: file.display });
    }
  }
  return [...byMount.values()].map((entry) => entry.module);
}

function parsePort(value: string | boolean | undefined): number {
  if (value === undefined) return 8080;
  const text = String(value);
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`);
  }
  return port;
}

/**
 * The `--static` folders by URL path: each value is `<dir>` (served at `/`) or `<path>=<dir>`
 * (`/admin=admin/dist`); each folder must exist and each path be given once (checked before
 * anything starts). `undefined` when none is given.
 */
function parseStaticDirs(values: readonly string[]): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  const dirs: Record<string, string> = {};
  for (const value of values) {
    const mount = /^(\/[^=]*)=(.+)$/.exec(value);
    const path = mount ? mount[1] : "/";
    const dir = mount ? mount[2] : value;
    if (!isStaticMountPath(path)) {
      throw new UsageError(
        `--static ${value}: the path must look like /admin (no trailing slash), got "${path}"`,
      );
    }
    if (path in dirs) throw new UsageError(`--static names two folders for ${path}`);
    let isFolder = false;
    try {
      isFolder = statSync(dir).isDirectory();
    } catch {
      // Missing or unreadable: the same message.
    }
    if (!isFolder) throw new UsageError(`--static must name an existing folder, got "${dir}"`);
    dirs[path] = dir;
  }
  return dirs;
}

function parseHost(value: string | boolean | undefined): string {
  if (value === undefined) return "localhost";
  const host = String(value).trim();
  if (host === "" || /[\s/]/.test(host)) {
    throw new UsageError(`--host must be a host name or an IP address, got "${value}"`);
  }
  return host.replace(/^\[(.*)\]$/, "$1");
}
