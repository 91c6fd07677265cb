import type { Schema } from "../schema/mod.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import { createModule } from "./create_module.ts";
import type { ModuleBackground, ModuleInstance } from "./module_instance.ts";
import type { Route } from "./route.ts";
import { zodOf, type ZodSchema } from "./zod_schema.ts";

/**
 * What a module's `routes` (and `background`) function receives at instantiation.
 *
 * @example Routes built apart from the module's declaration
 * ```ts
 * import { defineModule, type ModuleSetup, type Route, route } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const greeterConfig = z.object({ greeting: z.string() });
 * function routes({ config }: ModuleSetup<z.output<typeof greeterConfig>>): Route[] {
 *   return [route({ method: "GET", path: "/", handler: () => ({ message: config.greeting }) })];
 * }
 * const greeter = defineModule({ name: "greeter", config: greeterConfig, routes });
 * ```
 */
export interface ModuleSetup<Config> {
  /** The validated configuration. */
  config: Config;
  /**
   * The database of a module that declares a `schema`: the adapter and the namespace (Postgres
   * schema) its tables live in. `undefined` for modules without a schema.
   */
  database?: { adapter: SqlAdapter; namespace: string };
}

/**
 * The declaration of a module: once per module, instantiated many times. What
 * {@link defineModule} takes.
 *
 * @example A declaration kept in a variable
 * ```ts
 * import { defineModule, type ModuleSpec, route } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const spec: ModuleSpec<{ greeting: string }, { greeting?: string }> = {
 *   name: "greeter",
 *   config: z.object({ greeting: z.string().default("Hello") }),
 *   routes: ({ config }) => [
 *     route({ method: "GET", path: "/", handler: () => ({ message: config.greeting }) }),
 *   ],
 * };
 * const greeter = defineModule(spec);
 * ```
 */
export interface ModuleSpec<Config, ConfigInput, Routes extends readonly Route[] = Route[]> {
  /** Module name: lower-case letters, digits and dashes; mounted at `/api/<name>` by default. */
  name: string;
  /** Schema of the configuration, validated at instantiation. */
  config?: ZodSchema<Config, ConfigInput>;
  /** The module's versioned database schema; instances then need a `database` adapter. */
  schema?: Schema;
  /** Builds the routes from the validated configuration; their types become the instances'. */
  routes: (setup: ModuleSetup<Config>) => Routes;
  /**
   * Background work (durable hook workers), built from the validated configuration; it starts
   * with the instance's first request (see `autoStart`) or `serve()`.
   */
  background?: (setup: ModuleSetup<Config>) => ModuleBackground;
}

/**
 * Options given when instantiating a module (calling its {@link ModuleFactory}).
 *
 * @example Two instances of one module on one database
 * ```ts
 * import { defineModule, type InstantiateOptions } from "@app/fragment-cli";
 *
 * const empty = defineModule({ name: "empty", routes: () => [] });
 * const options: InstantiateOptions<undefined> = { mountRoute: "/api/second", bodyLimit: 64_000 };
 * const first = empty();
 * const second = empty(options);
 * ```
 */
export interface InstantiateOptions<ConfigInput> {
  /** The module's configuration, validated by its config schema. */
  config?: ConfigInput;
  /** Where to mount the module. @default `/api/<name>` */
  mountRoute?: string;
  /** Largest accepted request body in bytes. @default 1 MiB */
  bodyLimit?: number;
  /** The database, required when the module declares a `schema`. */
  database?: SqlAdapter;
  /**
   * The Postgres schema the module's tables live in; set it to run two instances of one module
   * on one database. @default the schema's name
   */
  namespace?: string;
  /**
   * Start the module's background work with its first request; `false` leaves it to
   * `background.start()`, `serve()` or `background.drain()`. @default true
   */
  autoStart?: boolean;
}

/**
 * Instantiates a defined module: what {@link defineModule} returns. `Routes` is the type of the
 * routes its `routes` function returns, which every instance carries (see {@link ModuleInstance}).
 *
 * @example A function that mounts any defined module under `/v1`
 * ```ts
 * import { defineModule, type ModuleFactory, type ModuleInstance } from "@app/fragment-cli";
 *
 * function underV1(factory: ModuleFactory<undefined>, name: string): ModuleInstance {
 *   return factory({ mountRoute: `/v1/${name}` });
 * }
 * const health = underV1(defineModule({ name: "health", routes: () => [] }), "health");
 * ```
 */
export type ModuleFactory<ConfigInput, Routes extends readonly Route[] = readonly Route[]> = (
  options?: InstantiateOptions<ConfigInput>,
) => ModuleInstance<Routes>;

/**
 * Raised when a module's configuration does not match its schema (or a module that declares a
 * `schema` gets no `database`): at instantiation, naming each bad option.
 *
 * @example
 * ```ts
 * import { defineModule, ModuleConfigError } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const greeter = defineModule({
 *   name: "greeter",
 *   config: z.object({ greeting: z.string() }),
 *   routes: () => [],
 * });
 * try {
 *   greeter({ config: { greeting: 42 as unknown as string } });
 * } catch (error) {
 *   if (error instanceof ModuleConfigError) console.log(error.message);
 * }
 * ```
 */
export class ModuleConfigError extends Error {
  /**
   * An error naming the module and each bad option.
   *
   * @param moduleName The module whose configuration is wrong.
   * @param details What is wrong, option by option.
   */
  constructor(moduleName: string, details: string) {
    super(`Invalid configuration for module "${moduleName}": ${details}`);
    this.name = "ModuleConfigError";
  }
}

/**
 * Declares a module once; the returned factory instantiates it with options. The configuration is
 * validated at instantiation with an error naming each bad option.
 *
 * @example
 * ```ts
 * import { defineModule, route } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const greeter = defineModule({
 *   name: "greeter",
 *   config: z.object({ greeting: z.string().default("Hello") }),
 *   routes: ({ config }) => [
 *     route({
 *       method: "GET",
 *       path: "/hello/:name",
 *       params: z.object({ name: z.string() }),
 *       handler: ({ params }) => ({ message: `${config.greeting}, ${params.name}` }),
 *     }),
 *   ],
 * });
 *
 * const app = greeter({ config: { greeting: "Hi" } });
 * console.log(app.mountRoute); // "/api/greeter"
 * ```
 */
export function defineModule<
  Config = undefined,
  ConfigInput = Config,
  Routes extends readonly Route[] = Route[],
>(
  spec: ModuleSpec<Config, ConfigInput, Routes>,
): ModuleFactory<ConfigInput, Routes> {
  return function instantiate(options = {}) {
    let config = options.config as unknown as Config;
    if (spec.config) {
      const result = zodOf(spec.config).safeParse(options.config ?? {});
      if (!result.success) {
        const details = result.error.issues
          .map((issue) => `${issue.path.join(".") || "(config)"}: ${issue.message}`)
          .join("; ");
        throw new ModuleConfigError(spec.name, details);
      }
      config = result.data;
    }
    let database: ModuleSetup<Config>["database"];
    if (spec.schema) {
      if (!options.database) {
        throw new ModuleConfigError(spec.name, "database: the module has a schema and needs one");
      }
      database = { adapter: options.database, namespace: options.namespace ?? spec.schema.name };
    }
    const setup: ModuleSetup<Config> = { config, database };
    return createModule({
      name: spec.name,
      routes: spec.routes(setup),
      mountRoute: options.mountRoute,
      bodyLimit: options.bodyLimit,
      database: spec.schema && database ? { schema: spec.schema, ...database } : undefined,
      background: spec.background?.(setup),
      autoStart: options.autoStart,
    });
  };
}
