/**
 * `GET /me`, the bootstrap answer of a single-page app. Declaration only (see
 * `http/operation.ts`).
 *
 * @module
 */

import type { AuthActor } from "../actor.ts";
import type { AuthOperation } from "../http/operation.ts";
import { meResponse } from "./me_response.ts";
import type { AuthMe } from "./mod.ts";

/** `GET /me`: the user, organizations, active organization and pending invitations. */
export const me: AuthOperation<{
  method: "GET";
  path: "/me";
  response: AuthMe;
  /** The answer as the database wrote it, JSON text: the route sends it is. */
  result: string;
  api: (actor: AuthActor) => Promise<AuthMe>;
}> = {
  method: "GET",
  path: "/me",
  summary: "The user, their organizations, active organization and pending invitations",
  guard: "signedIn",
  responses: { 200: meResponse },
  call: (services, _input, actor) => services.me(actor),
  api: (text) => JSON.parse(text) as AuthMe,
  reply: (text) => new Response(text, { headers: { "content-type": "application/json" } }),
};
