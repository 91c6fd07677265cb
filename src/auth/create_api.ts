/**
 * Builds `authModule.api` (see `api.ts`) over the services of one module instance: it resolves the
 * actor, parses the input by the route's schemas, then calls the service the route calls.
 *
 * @module
 */

import type { DurableHooks } from "../hooks/mod.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import type { AccountService } from "./account/account_service.ts";
import type { Actor, AuthActor } from "./actor.ts";
import type { AuthApi, AuthPermissionQuery, AuthUserRole } from "./api.ts";
import type { AuthOrganizationRef } from "./api_inputs.ts";
import type { Authenticator } from "./sessions/authenticator.ts";
import type { AuthAddMemberBody } from "./organizations/bodies.ts";
import { signUpBody } from "./account/credential_inputs.ts";
import { authError, notFound } from "./errors.ts";
import { operationApi } from "./http/operation_api.ts";
import type { AuthServices } from "./http/operation.ts";
import type { AccountLifecycle, EmailLinkBuilder } from "./account/mod.ts";
import { verificationLinkOpener } from "./account/verification_link.ts";
import type { MeReader } from "./me/mod.ts";
import type { AuthAddMemberInput, OrganizationsFeature } from "./organizations/mod.ts";
import type { AuthMember } from "./organizations/resources.ts";
import { deleteUserSessions } from "./sessions/session_store.ts";
import { type EntryRow, findEntry } from "./organizations/organization_store.ts";
import { isPermission } from "./organizations/permissions.ts";
import { requireSecondFactor } from "./organizations/access.ts";
import { toMember } from "./organizations/resources.ts";
import type { AuthTableNames } from "./tables.ts";
import type { TelegramService } from "./telegram/mod.ts";
import type { EmailLinkService } from "./email_link/mod.ts";
import type { IdentityService, OAuthService } from "./oauth/mod.ts";
import type { PasskeyService } from "./passkeys/mod.ts";
import type { TwoFactorService } from "./two_factor/mod.ts";
import { findUserById, isUuid, publicUser, updateUserRole } from "./account/user_store.ts";

/** What the API needs from its module instance. */
export interface AuthApiDeps {
  db: SqlAdapter;
  tables: AuthTableNames;
  accounts: AccountService;
  authenticator: Authenticator;
  me: MeReader;
  hooks: DurableHooks | null;
  /** The organizations feature, `null` with `organizations: false`. */
  organizations: OrganizationsFeature | null;
  /** The account lifecycle operations. */
  lifecycle: AccountLifecycle;
  /** The links the account mails carry, and where a verification link lands. */
  links: EmailLinkBuilder;
  /** Telegram accounts, `null` without the `telegram` option. */
  telegram: TelegramService | null;
  /** Passwordless sign-in by email link. */
  emailLink: EmailLinkService;
  /** The sign-in flow with providers, `null` without the `oauth` option. */
  oauth: OAuthService | null;
  /** Connected provider accounts, `null` without the `oauth` option. */
  identities: IdentityService | null;
  /** Passkeys. */
  passkeys: PasskeyService;
  /** Second factors and the second step of a sign-in. */
  twoFactor: TwoFactorService;
}

const ROLES: readonly AuthUserRole[] = ["user", "admin"];

/** Builds the server-side API of one module instance. */
export function createAuthApi(deps: AuthApiDeps): AuthApi {
  const { db, tables, accounts, authenticator } = deps;
  const feature = deps.organizations;

  /** The actor of a call, checked like the credential of a request. */
  async function resolveActor(actor: AuthActor, operation: string): Promise<Actor> {
    if (actor !== null && typeof actor === "object") {
      if ("token" in actor && typeof actor.token === "string") {
        const context = await authenticator.requireToken(actor.token);
        return { user: context.user, session: context.session };
      }
      if ("userId" in actor && typeof actor.userId === "string") {
        const record = await findUserById(db, tables, actor.userId);
        if (!record) throw authError("USER_NOT_FOUND", "User not found");
        return { user: publicUser(record), session: null };
      }
      if ("user" in actor && "session" in actor && actor.user && actor.session) {
        return { user: actor.user, session: actor.session };
      }
    }
    throw new TypeError(
      `${operation}(): the actor must be { userId }, { token } or the context of getRequestAuth()`,
    );
  }

  const options = feature?.options;
  const services: AuthServices = {
    accounts,
    me: deps.me,
    organizations: feature?.services as AuthServices["organizations"],
    lifecycle: deps.lifecycle,
    verificationLink: verificationLinkOpener(accounts, deps.links),
    telegram: deps.telegram as TelegramService,
    emailLink: deps.emailLink,
    oauth: deps.oauth as OAuthService,
    identities: deps.identities as IdentityService,
    passkeys: deps.passkeys,
    twoFactor: deps.twoFactor,
  };
  const operations = operationApi({
    services,
    bodyOptions: options ?? null,
    telegram: deps.telegram !== null,
    oauth: deps.oauth !== null,
    resolveActor,
  }) as unknown as
    & Omit<
      AuthApi,
      "addMember" | "hooks" | "telegramAccount" | "confirmTelegramLink"
    >
    & {
      addMember(
        actor: AuthActor,
        input: AuthOrganizationRef & AuthAddMemberBody,
      ): Promise<AuthMember>;
    };

  const serverAddMember = async (input: AuthAddMemberInput): Promise<AuthMember> => {
    if (!feature) throw new Error("addMember(): the organizations feature is disabled");
    const roles = input.roles ?? options!.defaultMemberRoles;
    const unknown = roles.find((role) => !options!.roles.includes(role));
    if (roles.length === 0 || unknown !== undefined) {
      throw new TypeError(`addMember(): roles must be among ${options!.roles.join(", ")}`);
    }
    return await feature.services.members.add(null, { ...input, roles: [...new Set(roles)] });
  };
  const telegram = (operation: string): TelegramService => {
    if (!deps.telegram) throw new Error(`${operation}(): the telegram feature is disabled`);
    return deps.telegram;
  };
  /** The caller's entry in the organization, after checking the query (`null`: not a member). */
  async function entryFor(
    userId: string,
    input: AuthPermissionQuery,
    operation: string,
  ): Promise<EntryRow | null> {
    if (!feature) throw new Error(`${operation}(): the organizations feature is disabled`);
    if (!isPermission(input?.permission)) {
      throw new TypeError(
        `${operation}(): permission must be "resource:action" (lower-case, no wildcard), got ` +
          JSON.stringify(input?.permission),
      );
    }
    if (typeof input.organizationId !== "string") {
      throw new TypeError(`${operation}(): organizationId must be a string`);
    }
    return await findEntry(db, tables, input.organizationId, userId);
  }

  const api: AuthApi = {
    ...operations,
    async hasPermission(actor, input) {
      const { user } = await resolveActor(actor, "hasPermission");
      const entry = await entryFor(user.id, input, "hasPermission");
      // A member the organization's second-factor requirement keeps out holds no permission.
      return entry !== null && entry.e_access === "member" &&
        options!.permissions.has(entry.m_roles, input.permission);
    },
    async requirePermission(request, input) {
      const found = await authenticator.require(request);
      const entry = await entryFor(found.user.id, input, "requirePermission");
      if (!entry) throw notFound("Organization");
      requireSecondFactor(entry);
      if (!options!.permissions.has(entry.m_roles, input.permission)) {
        throw authError(
          "FORBIDDEN",
          `Your roles do not have the permission "${input.permission}"`,
        );
      }
      return {
        user: found.user,
        session: found.session,
        member: toMember(entry),
        permissions: options!.permissions.of(entry.m_roles),
      };
    },
    hooks: deps.hooks,
    telegramAccount: async (telegramUserId) =>
      await telegram("telegramAccount").account(telegramUserId),
    confirmTelegramLink: async (token, from) =>
      await telegram("confirmTelegramLink").confirmLink(token, from),
    async createUser(input) {
      const parsed = signUpBody.safeParse({ email: input?.email, password: input?.password });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new TypeError(`createUser(): invalid ${issue.path.join(".")}: ${issue.message}`);
      }
      const role = input.role ?? "user";
      if (!ROLES.includes(role)) throw new TypeError(`createUser(): unknown role "${role}"`);
      const emailVerified = input.emailVerified ?? false;
      if (typeof emailVerified !== "boolean") {
        throw new TypeError("createUser(): emailVerified must be a boolean");
      }
      return await accounts.createUser({ ...parsed.data, role, emailVerified });
    },
    async getRequestAuth(request) {
      try {
        const found = await authenticator.lookup(request);
        return found ? { user: found.user, session: found.session } : null;
      } catch (error) {
        // Conflicting cookie and header: no single credential, so no user.
        if ((error as { code?: unknown }).code === "CONFLICTING_CREDENTIALS") return null;
        throw error;
      }
    },
    async revokeUserSessions(userId) {
      return isUuid(userId) ? await deleteUserSessions(db, tables, userId) : 0;
    },
    async setUserRole(userId, role) {
      if (!ROLES.includes(role)) throw new TypeError(`setUserRole(): unknown role "${role}"`);
      const updated = await updateUserRole(db, tables, userId, role);
      if (!updated) throw new RangeError(`setUserRole(): no user with id "${userId}"`);
      return publicUser(updated);
    },

    addMember(
      first: AuthAddMemberInput | AuthActor,
      second?: AuthOrganizationRef & AuthAddMemberBody,
    ): Promise<AuthMember> {
      // One argument: the server's say; two: as the actor, like the route.
      if (second === undefined) return serverAddMember(first as AuthAddMemberInput);
      return operations.addMember(first as AuthActor, second);
    },
    async cancelInvitation(actor, input) {
      const answer = await operations.respondToInvitation(actor, { ...input, action: "cancel" });
      return { invitation: answer.invitation };
    },
  };
  return api;
}
