import type { Schema, SqlAdapter } from "../db/mod.ts";
import type { HttpMethod } from "./route.ts";

/**
 * The brand every instantiated module carries under {@link ModuleInstance.brand}. A string (not a
 * symbol) so that two copies of this package in one process still recognise each other's modules.
 */
export const MODULE_BRAND = "fragment-cli/module@1";

/** One route of a mounted module: its method and its full path (mount route included). */
export interface MountedRoute {
  method: HttpMethod;
  path: string;
}

/**
 * A module's database binding: which schema it needs, in which namespace (Postgres schema), on
 * which adapter. `fragment-cli db …` and `serve` migrate it.
 */
export interface ModuleDatabase {
  /** The versioned schema of the module. */
  schema: Schema;
  /** The Postgres schema the module's tables live in. */
  namespace: string;
  /** The SQL adapter the module runs its queries on. */
  adapter: SqlAdapter;
}

/**
 * A route another service has to be told about (a webhook URL to register with a messenger):
 * `fragment-cli serve` prints its full URL and notes under the module.
 *
 * @example What the messenger module declares
 * ```ts
 * import type { ModuleEndpoint } from "@app/fragment-cli";
 *
 * const webhook: ModuleEndpoint = {
 *   label: "Webhook URL (for setWebhook)",
 *   path: "/api/messenger/messenger/webhook",
 *   notes: ["Secret header: X-Messenger-Bot-Api-Secret-Token"],
 * };
 * ```
 */
export interface ModuleEndpoint {
  /** What it is for, e.g. `Webhook URL (for setWebhook)`. */
  readonly label: string;
  /** Its full path, the mount route included. */
  readonly path: string;
  /**
   * The origin the outside service reaches it at (the module's `publicOrigin`), when configured;
   * `serve` uses its own address otherwise.
   */
  readonly origin?: string;
  /** What a caller must send besides, e.g. the name of a secret header (never a secret). */
  readonly notes?: readonly string[];
}

/** Background work of a module (durable hook workers), started and stopped by the server. */
export interface ModuleBackground {
  /** Starts the work; called once the server listens. */
  start(): void | Promise<void>;
  /** Stops the work; in-flight jobs finish first. */
  stop(): void | Promise<void>;
}

/**
 * An instantiated module: a plain object with a Web-standard `fetch` that mounts anywhere.
 *
 * @example Mount in a Deno Deploy / Bun / Node app
 * ```ts
 * import type { ModuleInstance } from "@app/fragment-cli";
 *
 * function handler(module: ModuleInstance): (request: Request) => Promise<Response> {
 *   return (request) => module.fetch(request);
 * }
 * ```
 */
export interface ModuleInstance {
  /** Always {@link MODULE_BRAND}; lets tools find modules among a file's exports. */
  readonly brand: typeof MODULE_BRAND;
  /** The module's name, e.g. `auth`. */
  readonly name: string;
  /** Where the module is mounted, e.g. `/api/auth` (matched on a path-segment boundary). */
  readonly mountRoute: string;
  /** Every route with its full path. */
  readonly routes: readonly MountedRoute[];
  /**
   * Answers a request whose path starts with {@link ModuleInstance.mountRoute}. `connection` is
   * what a runtime's server passes a handler as its second argument, from which the module reads
   * the client's address: mount it directly (`Deno.serve(module.fetch)`,
   * `Bun.serve({ fetch: module.fetch })`, `serve({ fetch: module.fetch })` of
   * `@hono/node-server`), forward that argument, or pass `{ remoteAddress }` yourself.
   */
  fetch(request: Request, connection?: unknown): Promise<Response>;
  /** The module's database binding, when it has a schema. */
  readonly database?: ModuleDatabase;
  /** Background work the server should run alongside (durable hook workers). */
  readonly background?: ModuleBackground;
  /** Routes to register with another service, printed in full by `fragment-cli serve`. */
  readonly endpoints?: readonly ModuleEndpoint[];
}

/**
 * Tells whether a value is an instantiated module (of any copy of this package).
 *
 * @example
 * ```ts
 * import { isModuleInstance } from "@app/fragment-cli";
 *
 * console.log(isModuleInstance({})); // false
 * ```
 */
export function isModuleInstance(value: unknown): value is ModuleInstance {
  return typeof value === "object" && value !== null &&
    (value as { brand?: unknown }).brand === MODULE_BRAND &&
    typeof (value as { fetch?: unknown }).fetch === "function";
}
