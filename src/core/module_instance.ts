import type { DrainOptions, DrainResult } from "../hooks/mod.ts";
import type { Schema } from "../schema/mod.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import type { HttpMethod, Route } from "./route.ts";

/**
 * The brand every instantiated module carries under {@link ModuleInstance.brand}. A string (not a
 * symbol) so that two copies of this package in one process still recognise each other's modules.
 */
export const MODULE_BRAND: ModuleInstance["brand"] = "fragment-cli/module@1";

/**
 * A module's database binding: which schema it needs, in which namespace (Postgres schema), on
 * which adapter. `fragment-cli db …` and `serve` migrate it.
 *
 * @example Where a module's tables are
 * ```ts
 * import type { ModuleInstance } from "@app/fragment-cli";
 *
 * function describe(module: ModuleInstance): string {
 *   const database = module.database;
 *   return database ? `${database.schema.name} in ${database.namespace}` : "no database";
 * }
 * ```
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

/**
 * Background work of a module (durable hook workers), as a module author supplies it. The
 * module's {@link ModuleInstance.background} control runs it: started by the first request (or
 * `serve()`, or the application), stopped by `close()`.
 *
 * @example A timer as a module's background work
 * ```ts
 * import { createModule, type ModuleBackground } from "@app/fragment-cli";
 *
 * let timer: ReturnType<typeof setInterval> | undefined;
 * const ticker: ModuleBackground = {
 *   start: () => {
 *     timer = setInterval(() => console.log("tick"), 60_000);
 *   },
 *   stop: () => clearInterval(timer),
 * };
 * const clock = createModule({ name: "clock", routes: [], background: ticker, autoStart: false });
 * ```
 */
export interface ModuleBackground {
  /** Starts the work; called once per start of the module's control. */
  start(): void | Promise<void>;
  /** Stops the work; in-flight jobs finish first. */
  stop(): void | Promise<void>;
  /** Runs the work that is due now, in the foreground, and resolves when it is done. */
  drain?(options?: DrainOptions): Promise<DrainResult>;
}

/**
 * The control of a module's background work (its durable hook worker). The worker starts with
 * the module's first request unless the module was created with `autoStart: false` or one of
 * these methods was called first; `close()` on the module stops it.
 *
 * @example Run due hooks after each response, with no worker (Deno Deploy)
 * ```ts ignore
 * import { messenger, pgliteAdapter } from "@app/fragment-cli";
 *
 * const bot = messenger({ database: pgliteAdapter(), webhookSecret: "…", autoStart: false });
 * Deno.serve(async (request) => {
 *   const response = await bot.fetch(request);
 *   await bot.background.drain();
 *   return response;
 * });
 * ```
 */
export interface ModuleBackgroundControl {
  /** Whether the worker is running. */
  readonly running: boolean;
  /** Starts the worker (idempotent; concurrent calls share one start). */
  start(): Promise<void>;
  /**
   * Stops the worker: no new work is claimed, running handlers finish first. Requests do not
   * start it again; `start()` does.
   */
  stop(): Promise<void>;
  /**
   * Runs the work due now in the foreground and resolves when it is done, worker or not: the
   * way to process hooks where no process lives on (Deno Deploy, `Deno.cron`, a script).
   */
  drain(options?: DrainOptions): Promise<DrainResult>;
}

/**
 * An instantiated module: a plain object with a Web-standard `fetch` that mounts anywhere.
 * `Routes` is the type of the routes it was created with (see {@link Route}): what
 * `createModuleClient<typeof instance>` (`@app/fragment-cli/client`) types its calls with.
 *
 * @example Mount in a Deno Deploy / Bun / Node app
 * ```ts
 * import type { ModuleInstance } from "@app/fragment-cli";
 *
 * function handler(module: ModuleInstance): (request: Request) => Promise<Response> {
 *   return (request) => module.fetch(request);
 * }
 * ```
 *
 * @example Stop its background work on shutdown
 * ```ts ignore
 * await module.close(); // then close its database adapter
 * ```
 */
export interface ModuleInstance<Routes extends readonly Route[] = readonly Route[]> {
  /**
   * Always `"fragment-cli/module@1"`: lets tools (`fragment-cli`) find modules among a file's
   * exports, even made by another copy of this package.
   */
  readonly brand: "fragment-cli/module@1";
  /** The module's name, e.g. `auth`. */
  readonly name: string;
  /** Where the module is mounted, e.g. `/api/auth` (matched on a path-segment boundary). */
  readonly mountRoute: string;
  /** Every route with its full path. */
  readonly routes: readonly { readonly method: HttpMethod; readonly path: string }[];
  /**
   * Answers a request whose path starts with {@link ModuleInstance.mountRoute}. `connection` is
   * what a runtime's server passes a handler as its second argument, from which the module reads
   * the client's address: mount it directly (`Deno.serve(module.fetch)`,
   * `Bun.serve({ fetch: module.fetch })`, `serve({ fetch: module.fetch })` of
   * `@hono/node-server`), forward that argument, or pass `{ remoteAddress }` yourself. The first
   * call starts the module's background work (see {@link ModuleInstance.background}).
   */
  fetch(request: Request, connection?: unknown): Promise<Response>;
  /** The module's database binding, when it has a schema. */
  readonly database?: ModuleDatabase;
  /**
   * The module's background work (durable hook workers), when it has some: started by its first
   * request (unless `autoStart: false`), by `serve()`, or by `background.start()`.
   */
  readonly background?: ModuleBackgroundControl;
  /**
   * Stops the module's background work: no new work is claimed, running handlers (and drains in
   * flight) finish, then the worker releases its timers and its database listener, so the process
   * can exit. Requests
   * are still answered, but none starts the worker again. The database adapter stays open: it is
   * the application's to close (after the module). Idempotent.
   */
  close(): Promise<void>;
  /** {@link ModuleInstance.close}, for `await using module = …`. */
  [Symbol.asyncDispose](): Promise<void>;
  /** Routes to register with another service, printed in full by `fragment-cli serve`. */
  readonly endpoints?: readonly ModuleEndpoint[];
  /**
   * Called by `serve()` with the address it listens at (e.g. `http://localhost:8080`): the
   * origin of the links a module mails when it has no `publicOrigin`.
   */
  servedAt?(url: string): void;
  /**
   * Type level only, never set: the routes the module was created with, with their declared
   * types, which a typed client reads.
   */
  readonly routeTypes?: Routes;
}

/**
 * Tells whether a value is an instantiated module (of any copy of this package).
 *
 * @example
 * ```ts
 * import { isModuleInstance } from "./module_instance.ts";
 *
 * console.log(isModuleInstance({})); // false
 * ```
 */
export function isModuleInstance(value: unknown): value is ModuleInstance {
  return typeof value === "object" && value !== null &&
    (value as { brand?: unknown }).brand === MODULE_BRAND &&
    typeof (value as { fetch?: unknown }).fetch === "function";
}
