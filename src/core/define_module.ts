import type { z } from "zod";
import { createModule } from "./create_module.ts";
import type { ModuleBackground, ModuleInstance } from "./module_instance.ts";
import type { Route } from "./route.ts";

/** What a module's `routes` function receives at instantiation. */
export interface ModuleSetup<Config> {
  /** The validated configuration. */
  config: Config;
}

/** The declaration of a module: once per module, instantiated many times. */
export interface ModuleSpec<Config, ConfigInput> {
  /** Module name: lower-case letters, digits and dashes; mounted at `/api/<name>` by default. */
  name: string;
  /** Schema of the configuration, validated at instantiation. */
  config?: z.ZodType<Config, ConfigInput>;
  /** Builds the routes from the validated configuration. */
  routes: (setup: ModuleSetup<Config>) => Route[];
  /** Background work started by the server, built from the validated configuration. */
  background?: (setup: ModuleSetup<Config>) => ModuleBackground;
}

/** Options given when instantiating a module. */
export interface InstantiateOptions<ConfigInput> {
  /** The module's configuration, validated by its config schema. */
  config?: ConfigInput;
  /** Where to mount the module. @default `/api/<name>` */
  mountRoute?: string;
  /** Largest accepted request body in bytes. @default 1 MiB */
  bodyLimit?: number;
}

/** Instantiates a defined module. */
export type ModuleFactory<ConfigInput> = (
  options?: InstantiateOptions<ConfigInput>,
) => ModuleInstance;

/** Raised when a module's configuration does not match its schema. */
export class ModuleConfigError extends Error {
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
 * export const app = greeter({ config: { greeting: "Hi" } });
 * ```
 */
export function defineModule<Config = undefined, ConfigInput = Config>(
  spec: ModuleSpec<Config, ConfigInput>,
): ModuleFactory<ConfigInput> {
  return function instantiate(options = {}) {
    let config = options.config as unknown as Config;
    if (spec.config) {
      const result = spec.config.safeParse(options.config ?? {});
      if (!result.success) {
        const details = result.error.issues
          .map((issue) => `${issue.path.join(".") || "(config)"}: ${issue.message}`)
          .join("; ");
        throw new ModuleConfigError(spec.name, details);
      }
      config = result.data;
    }
    const setup = { config };
    return createModule({
      name: spec.name,
      routes: spec.routes(setup),
      mountRoute: options.mountRoute,
      bodyLimit: options.bodyLimit,
      background: spec.background?.(setup),
    });
  };
}
