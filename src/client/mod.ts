/**
 * The typed client of the auth module, for browsers, Deno, Node and Bun: sign-up, sign-in,
 * sign-out, the session, `GET /me`, email verification and the whole organizations API
 * (organizations, members, invitations, active organization). Its types come from the routes'
 * zod schemas ({@link AuthContract}); at run time it needs nothing but `fetch` (no Node
 * built-ins, no npm package in its import graph).
 *
 * @example Sign in from a single-page app served with the module
 * ```ts ignore
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { error } = await client.signIn({ email: "ada@example.com", password: "correct horse" });
 * if (!error) {
 *   const { data } = await client.me();
 *   console.log(data?.user.email, data?.organizations.length);
 * }
 * ```
 *
 * @module
 */

export {
  type AuthClient,
  type AuthClientOptions,
  type AuthInvitationsClient,
  type AuthMembersClient,
  type AuthOrganizationsClient,
  type AuthPageOptions,
  createAuthClient,
  type InvitationTokenInput,
} from "./auth_client.ts";
export type { AuthClientError, AuthClientErrorCode, AuthResult } from "./result.ts";
export type { AuthFetch } from "./transport.ts";
export type {
  AuthContract,
  AuthInvitation,
  AuthInvitationEntry,
  AuthMember,
  AuthOrganization,
  AuthOrganizationEntry,
  AuthUser,
} from "../auth/mod.ts";
