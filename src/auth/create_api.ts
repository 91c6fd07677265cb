/**
 * Builds `authModule.api` (see `api.ts`) over the services of one module instance: it resolves the
 * actor, parses the input by the route's schemas, then calls the service the route calls.
 *
 * @module
 */

import type { z } from "zod";
import { HttpError, type ValidationIssue } from "../core/mod.ts";
import type { DurableHooks } from "../hooks/mod.ts";
import { PaginationError } from "../pagination/mod.ts";
import type { SqlAdapter } from "../sql/mod.ts";
import {
  type AccountService,
  type ClientInfo,
  credentialBody,
  type IssuedCredential,
} from "./account_service.ts";
import type { Actor, AuthActor } from "./actor.ts";
import type {
  AuthApi,
  AuthApiClient,
  AuthApiPage,
  AuthOrganizationRef,
  AuthUserRole,
} from "./api.ts";
import type { Authenticator } from "./authenticator.ts";
import type { AuthContract, AuthPageQuery } from "./contract.ts";
import { signInBody, signUpBody, verifyEmailBody } from "./credential_inputs.ts";
import { authError } from "./errors.ts";
import { accountApi, type AccountLifecycle } from "./account/mod.ts";
import type { MePayload, MeReader } from "./me/mod.ts";
import {
  invitationBodies,
  memberBodies,
  organizationBodies,
  respondToInvitationBody,
  setActiveOrganizationBody,
} from "./organizations/bodies.ts";
import {
  invitationParams,
  memberParams,
  organizationParams,
  pageQuery,
} from "./organizations/input.ts";
import type { OrganizationsFeature, ServerAddMemberInput } from "./organizations/mod.ts";
import type { OrganizationsServices } from "./organizations/services.ts";
import type { Member } from "./organizations/resources.ts";
import { deleteUserSessions } from "./session_store.ts";
import type { AuthTableNames } from "./tables.ts";
import { findUserById, isUuid, publicUser, updateUserRole } from "./user_store.ts";

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
}

const ROLES: readonly AuthUserRole[] = ["user", "admin"];

/**
 * Parses an operation's input by the route's schema; a failure is the route's 400
 * `VALIDATION_ERROR`, its issues' paths under `input`.
 */
function parseInput<T>(schema: z.ZodType<T>, value: unknown, operation: string): T {
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

/** A page request as the routes' query: strings, as a URL would carry them. */
function parsePage(page: AuthApiPage | undefined, operation: string): AuthPageQuery {
  const { pageSize, cursor } = page ?? {};
  return parseInput(pageQuery, {
    pageSize: typeof pageSize === "number" ? String(pageSize) : pageSize,
    cursor,
  }, operation);
}

function clientInfo(client: AuthApiClient | undefined): ClientInfo {
  return { request: client?.request ?? null, remoteAddress: client?.remoteAddress ?? null };
}

/** Builds the server-side API of one module instance. */
export function createAuthApi(deps: AuthApiDeps): AuthApi {
  const { db, tables, accounts, authenticator } = deps;
  const feature = deps.organizations;

  function organizations(operation: string): OrganizationsServices {
    if (!feature) throw new Error(`${operation}(): the organizations feature is disabled`);
    return feature.services;
  }

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

  /**
   * An organizations operation: the feature (before anything else), the actor (401/404), the
   * input (400), then the service, in the order of the routes.
   */
  function organizationsCall<Input, Result>(
    operation: string,
    parse: (input: unknown) => Input,
    run: (services: OrganizationsServices, actor: Actor, input: Input) => Promise<Result>,
  ): (actor: AuthActor, input?: unknown) => Promise<Result> {
    return async (actor, input) => {
      const services = organizations(operation);
      const resolved = await resolveActor(actor, operation);
      try {
        return await run(services, resolved, parse(input));
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

  const options = feature?.options;
  const bodies = options
    ? {
      organization: organizationBodies(options.maxMetadataBytes),
      member: memberBodies(options.roles),
      invitation: invitationBodies(options.roles),
    }
    : null;

  /** Path parameters then body, each by the route's schema. */
  function idsAndBody<Ids, Body>(
    operation: string,
    ids: z.ZodType<Ids>,
    body: (b: NonNullable<typeof bodies>) => z.ZodType<Body>,
  ): (input: unknown) => Ids & Body {
    return (input) => {
      const parsedIds = parseInput(ids, input, operation);
      return { ...parseInput(body(bodies!), input, operation), ...parsedIds };
    };
  }

  function idsAndPage<Ids>(
    operation: string,
    ids: z.ZodType<Ids>,
  ): (input: unknown) => Ids & AuthPageQuery {
    return (input) => {
      const parsedIds = parseInput(ids, input, operation);
      return { ...parsePage(input as AuthApiPage, operation), ...parsedIds };
    };
  }

  const serverAddMember = async (input: ServerAddMemberInput): Promise<Member> => {
    const services = organizations("addMember");
    const roles = input.roles ?? options!.defaultMemberRoles;
    const unknown = roles.find((role) => !options!.roles.includes(role));
    if (roles.length === 0 || unknown !== undefined) {
      throw new TypeError(`addMember(): roles must be among ${options!.roles.join(", ")}`);
    }
    return await services.members.add(null, { ...input, roles: [...new Set(roles)] });
  };
  const actorAddMember = organizationsCall(
    "addMember",
    idsAndBody("addMember", organizationParams, (b) => b.member.add),
    (services, actor, input) => services.members.add(actor, input),
  );

  const respond = organizationsCall(
    "respondToInvitation",
    idsAndBody("respondToInvitation", invitationParams, () => respondToInvitationBody),
    (services, actor, input) => services.invitations.respond(actor, input),
  );

  const api: AuthApi = {
    hooks: deps.hooks,
    ...accountApi({ lifecycle: deps.lifecycle, resolveActor, parseInput, clientInfo }),
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

    async signUp(input, client) {
      const body = parseInput(signUpBody, input, "signUp");
      return credentialBody(await accounts.signUp(body, clientInfo(client)));
    },
    async signIn(input, client) {
      const body = parseInput(signInBody, input, "signIn");
      const issued: IssuedCredential = await accounts.signIn(body, clientInfo(client));
      return credentialBody(issued);
    },
    async signOut(actor) {
      await accounts.signOut(await resolveActor(actor, "signOut"));
    },
    async getSession(actor) {
      return accounts.session(await resolveActor(actor, "getSession"));
    },
    async me(actor) {
      return JSON.parse(await deps.me(await resolveActor(actor, "me"))) as MePayload;
    },
    verifyEmail(input, client) {
      return accounts.verifyEmail(
        parseInput(verifyEmailBody, input, "verifyEmail"),
        clientInfo(client),
      );
    },
    async resendVerificationEmail(actor, client) {
      const resolved = await resolveActor(actor, "resendVerificationEmail");
      await accounts.resendVerificationEmail(resolved, clientInfo(client));
    },

    createOrganization: organizationsCall(
      "createOrganization",
      (input) => parseInput(bodies!.organization.create, input, "createOrganization"),
      (services, actor, input) => services.organizations.create(actor, input),
    ),
    listOrganizations: organizationsCall(
      "listOrganizations",
      (input) => parsePage(input as AuthApiPage | undefined, "listOrganizations"),
      (services, actor, page) => services.organizations.list(actor, page),
    ),
    getOrganization: organizationsCall(
      "getOrganization",
      (input) => parseInput(organizationParams, input, "getOrganization"),
      (services, actor, input) => services.organizations.get(actor, input),
    ),
    updateOrganization: organizationsCall(
      "updateOrganization",
      idsAndBody("updateOrganization", organizationParams, (b) => b.organization.update),
      (services, actor, input) => services.organizations.update(actor, input),
    ),
    deleteOrganization: organizationsCall(
      "deleteOrganization",
      (input) => parseInput(organizationParams, input, "deleteOrganization"),
      (services, actor, input) => services.organizations.delete(actor, input),
    ),
    getActiveOrganization: organizationsCall(
      "getActiveOrganization",
      () => undefined,
      (services, actor) => services.organizations.getActive(actor),
    ),
    setActiveOrganization: organizationsCall(
      "setActiveOrganization",
      (input) => parseInput(setActiveOrganizationBody, input, "setActiveOrganization"),
      (services, actor, input) => services.organizations.setActive(actor, input),
    ),
    listMembers: organizationsCall(
      "listMembers",
      idsAndPage("listMembers", organizationParams),
      (services, actor, input) => services.members.list(actor, input),
    ),
    addMember(
      first: ServerAddMemberInput | AuthActor,
      second?: AuthOrganizationRef & AuthContract["addMember"]["body"],
    ): Promise<Member> {
      // One argument: the server's say; two: as the actor, like the route.
      if (second === undefined) return serverAddMember(first as ServerAddMemberInput);
      return actorAddMember(first as AuthActor, second);
    },
    updateMemberRoles: organizationsCall(
      "updateMemberRoles",
      idsAndBody("updateMemberRoles", memberParams, (b) => b.member.updateRoles),
      (services, actor, input) => services.members.updateRoles(actor, input),
    ),
    removeMember: organizationsCall(
      "removeMember",
      (input) => parseInput(memberParams, input, "removeMember"),
      (services, actor, input) => services.members.remove(actor, input),
    ),
    createInvitation: organizationsCall(
      "createInvitation",
      idsAndBody("createInvitation", organizationParams, (b) => b.invitation.create),
      (services, actor, input) => services.invitations.create(actor, input),
    ),
    listInvitations: organizationsCall(
      "listInvitations",
      idsAndPage("listInvitations", organizationParams),
      (services, actor, input) => services.invitations.list(actor, input),
    ),
    listMyInvitations: organizationsCall(
      "listMyInvitations",
      (input) => parsePage(input as AuthApiPage | undefined, "listMyInvitations"),
      (services, actor, page) => services.invitations.listMine(actor, page),
    ),
    respondToInvitation: (actor, input) => respond(actor, input),
    async cancelInvitation(actor, input) {
      const answer = await respond(actor, { ...input, action: "cancel" });
      return { invitation: answer.invitation };
    },
  };
  return api;
}
