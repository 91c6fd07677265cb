/**
 * Schemas with declared types that cannot drift. An exported schema needs an explicit type (JSR's
 * fast check reads no inferred types), and an explicit `z.ZodType<Output, Input>` alone accepts a
 * schema with an extra field; {@link exactSchema} refuses to compile unless the schema's inferred
 * input and output are exactly the declared ones. The typed client (`src/client/`) derives its
 * arguments and results from these schemas.
 *
 * @module
 */

import type { z } from "zod";

/** `true` when `A` and `B` are the same type (not merely assignable either way). */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2)
  ? true
  : false;

/** `unknown` when `S` infers exactly `Output` and `Input`, a message type otherwise. */
type ExactCheck<S extends z.ZodType, Output, Input> = Equals<z.output<S>, Output> extends true
  ? Equals<z.input<S>, Input> extends true ? unknown
  : { "the schema's input is not the declared one": z.input<S> }
  : { "the schema's output is not the declared one": z.output<S> };

/**
 * Types `schema` as `z.ZodType<Output, Input>`, failing to compile unless the schema infers
 * exactly those types: `exactSchema<User>()(z.object({ … }))`.
 */
export function exactSchema<Output, Input = Output>(): <S extends z.ZodType>(
  schema: S & ExactCheck<S, Output, Input>,
) => z.ZodType<Output, Input> {
  return (schema) => schema as unknown as z.ZodType<Output, Input>;
}
