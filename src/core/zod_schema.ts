import type { z } from "zod";

/**
 * A zod (v4) schema: what routes declare their params, query, body and answers with, and modules
 * their configuration. Any `z.ZodType` is one (`z.object({ … })`, `z.string()`, …); `Output` is
 * the type it parses to, `Input` the type it accepts.
 *
 * It is written as the part of zod's internals that carries those two types (`_zod`, which
 * `z.output` and `z.input` read) rather than as `z.ZodType`: `deno doc` treats a type of an npm
 * package as private, so a public signature naming `z.ZodType` could not be documented. Only zod
 * schemas have `_zod`; the core hands every schema to zod unchanged. A schema read back from a
 * `Route` is typed this way too: cast it to `z.ZodType` to call zod's methods on it.
 *
 * @example A route's params, and the type they parse to
 * ```ts
 * import type { ZodSchema } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const params: ZodSchema<{ id: string }> = z.object({ id: z.string() });
 * ```
 */
export interface ZodSchema<Output = unknown, Input = unknown> {
  /** zod's internals, here for their types: what the schema parses to and what it accepts. */
  readonly _zod: { readonly output: Output; readonly input: Input };
}

/**
 * The zod schema behind a {@link ZodSchema}, with zod's API: the one cast between the documented
 * shape and zod, for the code that parses with it or converts it to JSON Schema.
 */
export function zodOf<Output, Input>(schema: ZodSchema<Output, Input>): z.ZodType<Output, Input> {
  return schema as unknown as z.ZodType<Output, Input>;
}
