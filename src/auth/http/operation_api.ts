/**
 * The operations' half of `authModule.api`, derived from their declarations (`operations.ts`):
 * each method checks the feature, resolves the actor (like a request's credential), parses its
 * input by the route's schemas (a failure is the route's 400 `VALIDATION_ERROR`, its issues'
 * paths under `input`), then calls the operation as the route does.
 *
 * @module
 */

import type { z } from "zod";
import { HttpError, type ValidationIssue } from "../../core/mod.ts";
import { PaginationError } from "../../pagination/mod.ts";
import type { ClientInfo } from "../account/account_service.ts";
import type { Actor, AuthActor } from "../actor.ts";
import type { AuthApiClient } from "../api_inputs.ts";
import { type AuthServices, type EnabledFeatures, featureEnabled } from "./operation.ts";
import { bodySchemaOf, namedOperations } from "./operation_routes.ts";

/** Parses an operation's input by one of its route's schemas. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, operation: string): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => ({
    path: ["input", ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
  throw new HttpError(400, "VALIDATION_ERROR", `Invalid input of ${operation}()`, {
    extra: { issues },
  });
}

/** Query values as a URL would carry them: numbers (a `pageSize`) as strings. */
function asQuery(input: unknown): { [name: string]: unknown } {
  const entries = Object.entries((input ?? {}) as { [name: string]: unknown });
  return Object.fromEntries(
    entries.map(([key, value]) => [key, typeof value === "number" ? String(value) : value]),
  );
}

function clientInfo(client: AuthApiClient | undefined): ClientInfo {
  return { request: client?.request ?? null, remoteAddress: client?.remoteAddress ?? null };
}

/** What the operations' methods need from the module instance. */
export interface OperationApiDeps extends EnabledFeatures {
  /** The services the operations call (a disabled feature's absent). */
  services: AuthServices;
  /** The actor of a call, checked like the credential of a request. */
  resolveActor(actor: AuthActor, operation: string): Promise<Actor>;
}

type ApiMethod = (...args: unknown[]) => Promise<unknown>;

/** One method per operation, by the operation's name. */
export function operationApi(deps: OperationApiDeps): { [name: string]: ApiMethod } {
  const methods: { [name: string]: ApiMethod } = {};
  for (const { name, operation } of namedOperations()) {
    const enabled = featureEnabled(operation, deps);
    const body = enabled ? bodySchemaOf(operation, deps.bodyOptions) : null;
    const takesInput = Boolean(operation.params || operation.query || operation.body);
    const parse = (input: unknown): unknown => {
      const params = operation.params ? parseInput(operation.params, input, name) as object : {};
      const rest = body
        ? parseInput(body as z.ZodType, input, name) as object
        : operation.query
        ? parseInput(operation.query, asQuery(input), name) as object
        : {};
      return { ...rest, ...params };
    };
    methods[name] = async (...args: unknown[]) => {
      if (!enabled) throw new Error(`${name}(): the ${operation.feature} feature is disabled`);
      const anonymous = operation.guard === "anonymous";
      const actor = anonymous ? null : await deps.resolveActor(args[0] as AuthActor, name);
      const input = anonymous ? args[0] : takesInput ? args[1] : undefined;
      const client = args[anonymous ? 1 : takesInput ? 2 : 1] as AuthApiClient | undefined;
      try {
        const result = await operation.call(
          deps.services,
          parse(input) as never,
          actor as never,
          clientInfo(client),
        );
        return operation.api ? operation.api(result) : result;
      } catch (error) {
        // The routes' boundary (the core) renders a bad page size or cursor as this 400; so
        // does this one, so that every refusal of `api` is an `HttpError`.
        if (error instanceof PaginationError) {
          throw new HttpError(error.status, error.code, error.message, { cause: error });
        }
        throw error;
      }
    };
  }
  return methods;
}
