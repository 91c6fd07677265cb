/**
 * The routes of the auth module, derived from its operation declarations (`operations.ts`): each
 * operation's route checks its guard (`authedRoute` / `publicRoute`: credential, origin), then
 * its input, calls the operation, and answers its result, setting or clearing the session cookie
 * where the operation says so.
 *
 * @module
 */

import type { z } from "zod";
import type { Route } from "../../core/mod.ts";
import type { ClientInfo } from "../account/account_service.ts";
import type { Actor } from "../actor.ts";
import type { AuthRoute } from "../contract.ts";
import { clearedSessionCookie, sessionCookie } from "../sessions/cookies.ts";
import * as operations from "../operations.ts";
import { deploymentOrigin } from "./origin_check.ts";
import type { AuthCredentialResponse } from "../account/responses.ts";
import { authedRoute, type AuthRouteDeps, publicRoute } from "./route_guards.ts";
import {
  type AuthBodyOptions,
  type AuthOperation,
  type AuthServices,
  type EnabledFeatures,
  featureEnabled,
} from "./operation.ts";

/** An operation with its name, types erased. */
export interface NamedOperation {
  /** The operation's name (its export name in `operations.ts`). */
  name: string;
  /** Its declaration. */
  operation: AuthOperation;
}

/** `/organizations/active` → `"00"`, `/organizations/:organizationId` → `"01"`. */
function specificity(path: string): string {
  return path.split("/").filter(Boolean).map((segment) => segment.startsWith(":") ? "1" : "0")
    .join("");
}

/**
 * Every operation with its name, in the order their routes are matched: a static segment before
 * a parameter at the same place (`/organizations/active` before `/organizations/:organizationId`),
 * then by name.
 */
export function namedOperations(): NamedOperation[] {
  return Object.entries(operations as unknown as { [name: string]: AuthOperation })
    .map(([name, operation]) => ({ name, operation }))
    .sort((a, b) => {
      const left = specificity(a.operation.path);
      const right = specificity(b.operation.path);
      return left < right ? -1 : left > right ? 1 : a.name < b.name ? -1 : 1;
    });
}

/** The body schema of an operation under the module's options (`null`: it has none). */
export function bodySchemaOf(
  operation: AuthOperation,
  options: AuthBodyOptions | null,
): z.ZodType | null {
  if (!operation.body) return null;
  if (typeof operation.body !== "function") return operation.body;
  if (!options) throw new Error("The organizations feature is disabled");
  return operation.body(options);
}

/** What the routes need from the module instance. */
export interface OperationRoutesDeps extends AuthRouteDeps, EnabledFeatures {
  /** The services the operations call. */
  services: AuthServices;
}

/**
 * The routes of one module instance: every operation whose feature is enabled, typed as their
 * declarations say ({@link AuthRoute}: type level only, for typed clients).
 */
export function operationRoutes(deps: OperationRoutesDeps): AuthRoute[] {
  const routes: Route[] = [];
  for (const { name, operation } of namedOperations()) {
    if (!featureEnabled(operation, deps)) continue;
    const body = bodySchemaOf(operation, deps.bodyOptions) ?? undefined;
    const declared = {
      name,
      method: operation.method,
      path: operation.path,
      summary: operation.summary,
      params: operation.params,
      query: operation.query,
      body,
      responses: operation.responses,
      errors: operation.errors,
    };
    /** Runs the operation for a validated request and answers its result. */
    const answer = async (
      parts: { params: unknown; query: unknown; body: unknown },
      actor: Actor | null,
      client: ClientInfo & { request: Request },
    ): Promise<unknown> => {
      const input = {
        ...(operation.query ? parts.query as object : {}),
        ...(body ? parts.body as object : {}),
        ...(operation.params ? parts.params as object : {}),
      };
      const result = await operation.call(deps.services, input as never, actor as never, client);
      return reply(operation, result, () => deploymentOrigin(client.request, deps.publicOrigin));
    };
    routes.push(
      operation.guard === "anonymous"
        ? publicRoute<unknown, unknown, unknown>(deps, {
          ...declared,
          handler: ({ params, query, body, request, remoteAddress }) =>
            answer({ params, query, body }, null, { request, remoteAddress }),
        })
        : authedRoute<unknown, unknown, unknown>(deps, {
          ...declared,
          handler: ({ params, query, body, request, remoteAddress, auth }) =>
            answer({ params, query, body }, auth, { request, remoteAddress }),
        }),
    );
  }
  // Each route is its operation's (method, path, schemas); only its type-level `types` is added.
  return routes as AuthRoute[];
}

/** The route's answer to a result: the operation's `reply`, and its cookie. */
function reply(operation: AuthOperation, result: unknown, origin: () => string): unknown {
  const answer = operation.reply ? operation.reply(result) : result;
  if (operation.cookie === "issue") {
    const credential = result as AuthCredentialResponse | { twoFactorRequired: true };
    // A sign-in that owes its second step issued nothing: no cookie either.
    if ("twoFactorRequired" in credential || typeof credential.token !== "string") return answer;
    const response = Response.json(answer);
    response.headers.set(
      "set-cookie",
      sessionCookie(origin(), credential.token, new Date(credential.expiresAt)),
    );
    return response;
  }
  if (operation.cookie === "clear") {
    // No result (sign-out): 204; a result (a reset password, a deleted account): its JSON.
    const response = answer === undefined
      ? new Response(null, { status: 204 })
      : Response.json(answer);
    response.headers.set("set-cookie", clearedSessionCookie(origin()));
    return response;
  }
  return answer;
}
