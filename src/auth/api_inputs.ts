/**
 * The inputs and answers `authModule.api` shares between operations: the client a call is made
 * for, a page request and a page, references to an organization or a member.
 *
 * @module
 */

import type { PageCursor, PageRequest } from "../pagination/mod.ts";
import type { InvitationAnswer, InvitationWithToken } from "./organizations/invitation_service.ts";

/**
 * The client a server-side sign-up, sign-in or verification is made for, so that the
 * per-address rate limits apply to it as over HTTP: the request it came with (its forwarding
 * header counts under `trustProxy`) and the socket's peer. Without either, only the per-account
 * limits and the hashing queue's bound apply.
 *
 * @example
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import type { AuthApiClient } from "@app/fragment-cli/auth";
 *
 * const authModule = auth({ database: pgliteAdapter() });
 * async function signInFor(request: Request, remoteAddress: string) {
 *   const client: AuthApiClient = { request, remoteAddress };
 *   return await authModule.api.signIn(await request.json(), client);
 * }
 * ```
 */
export interface AuthApiClient {
  /** The request the call serves (its forwarding header counts under `trustProxy`). */
  request?: Request;
  /** The socket's peer address of that request. */
  remoteAddress?: string | null;
}

/**
 * `pageSize` (1–100, default 20) and `cursor` of a list, as over HTTP; `pageSize` may be a number:
 * the project's one page request, `PageRequest` of `@app/fragment-cli/pagination`.
 *
 * @example
 * ```ts
 * import type { AuthApiPage } from "@app/fragment-cli/auth";
 *
 * const first: AuthApiPage = { pageSize: 50 };
 * ```
 */
export type AuthApiPage = PageRequest;

/**
 * The paging fields of a list's answer: the next page's `cursor` (`null` on the last) and
 * `hasNextPage` (`PageCursor` of `@app/fragment-cli/pagination`; a whole page is
 * `PageOf<"members", AuthMember>`).
 *
 * @example Read every page
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import type { AuthActor, AuthApiPageOf, AuthMember } from "@app/fragment-cli/auth";
 *
 * const { api } = auth({ database: pgliteAdapter() });
 * async function allMembers(actor: AuthActor, organizationId: string): Promise<AuthMember[]> {
 *   let page: AuthApiPageOf & { members: AuthMember[] } = await api.listMembers(actor, {
 *     organizationId,
 *   });
 *   const members = [...page.members];
 *   while (page.hasNextPage && page.cursor) {
 *     page = await api.listMembers(actor, { organizationId, cursor: page.cursor });
 *     members.push(...page.members);
 *   }
 *   return members;
 * }
 * ```
 */
export type AuthApiPageOf = PageCursor;

/**
 * An organization by id: `{ organizationId }`.
 *
 * @example
 * ```ts
 * import type { AuthOrganizationRef } from "@app/fragment-cli/auth";
 *
 * const ref: AuthOrganizationRef = { organizationId: "0b9a5c4e-4c1e-4a53-9a8e-2f1f7d0f6a11" };
 * ```
 */
export interface AuthOrganizationRef {
  /** The organization's id. */
  organizationId: string;
}

/**
 * A member by id: `{ organizationId, memberId }` (a member id of another organization is not
 * found).
 *
 * @example
 * ```ts
 * import type { AuthMemberRef } from "@app/fragment-cli/auth";
 *
 * const ref: AuthMemberRef = {
 *   organizationId: "0b9a5c4e-4c1e-4a53-9a8e-2f1f7d0f6a11",
 *   memberId: "9d1e2f3a-4b5c-4d6e-8f70-1a2b3c4d5e6f",
 * };
 * ```
 */
export interface AuthMemberRef {
  /** The organization's id. */
  organizationId: string;
  /** The membership's id (not the user's). */
  memberId: string;
}

/**
 * An invitation as its creator sees it: with the token to pass on to the invitee.
 *
 * @example
 * ```ts
 * import type { AuthCreatedInvitation } from "@app/fragment-cli/auth";
 *
 * function joinLink(invitation: AuthCreatedInvitation): string {
 *   return `https://app.example.com/join/${invitation.id}?token=${invitation.token}`;
 * }
 * ```
 */
export type AuthCreatedInvitation = InvitationWithToken;

/**
 * The answer of accepting (with the membership), rejecting or canceling an invitation.
 *
 * @example
 * ```ts
 * import type { AuthInvitationAnswer } from "@app/fragment-cli/auth";
 *
 * function describe(answer: AuthInvitationAnswer): string {
 *   return "member" in answer ? `joined ${answer.organization.name}` : answer.invitation.status;
 * }
 * ```
 */
export type AuthInvitationAnswer = InvitationAnswer;
