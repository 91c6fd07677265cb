// deno-lint-ignore-file no-explicit-any
/**
 * Fixtures for organizations tests: a module on a migrated database, users, organizations,
 * members and invitations created over HTTP.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  auth,
  type AuthModule,
  type AuthOptions,
  type AuthOrganizationsOptions,
  authSchema,
  scryptPasswordHasher,
} from "../../../src/auth/mod.ts";
import { migrate } from "../../../src/migrate/mod.ts";
import type { SqlAdapter } from "../../../src/sql/mod.ts";
import { call, signUp, uniqueEmail } from "./http.ts";
import { type Mailbox, registerMailbox, verifyEmail, withMailbox } from "./verification.ts";

/** A signed-up user with their token. */
export interface TestUser {
  token: string;
  user: { id: string; email: string; role: string; emailVerified: boolean };
}

/**
 * Migrates the auth schema (idempotent) and instantiates the module with a cheap hasher, a
 * mailbox keeping its verification mails (see `verification.ts`) and no worker started by its
 * requests (unless `options.autoStart` says otherwise).
 */
export async function organizationsModule(
  db: SqlAdapter,
  options: Partial<AuthOptions> = {},
): Promise<AuthModule> {
  await migrate(db, authSchema, { namespace: options.namespace ?? "auth" });
  const mailbox: Mailbox = new Map();
  const module = auth({
    database: db,
    passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
    // The tests deliver the organization events with drain(), when they choose.
    autoStart: false,
    ...withMailbox(options, mailbox),
  });
  registerMailbox(module, mailbox);
  return module;
}

/**
 * Lets owners and admins add members directly (`canAddMember`), which the module refuses by
 * default: for set-ups that build memberships with {@link addMember}.
 */
export const DIRECT_ADD: AuthOrganizationsOptions = Object.freeze({ canAddMember: () => true });

/**
 * Signs up a fresh user and verifies their address through `POST /verify-email` (invitations
 * reach verified addresses only), unless `verified: false`.
 */
export async function newUser(
  module: AuthModule,
  label = "user",
  options: { verified?: boolean } = {},
): Promise<TestUser> {
  return await signUpAs(module, uniqueEmail(label), options);
}

/** {@link newUser} with a given address. */
export async function signUpAs(
  module: AuthModule,
  email: string,
  options: { verified?: boolean } = {},
): Promise<TestUser> {
  const signed = await signUp(module, email);
  if (options.verified === false) return signed;
  await verifyEmail(module, signed.user.id);
  return { ...signed, user: { ...signed.user, emailVerified: true } };
}

/** Creates an organization as `owner`; returns its id and the response body. */
export async function createOrganization(
  module: AuthModule,
  owner: TestUser,
  body: Record<string, unknown> = {},
): Promise<{ id: string; slug: string; body: any }> {
  const slug = `org-${crypto.randomUUID().slice(0, 12)}`;
  const result = await call(module, "POST", "/organizations", {
    token: owner.token,
    body: { name: "Test organization", slug, ...body },
  });
  assert.equal(result.status, 201, JSON.stringify(result.body));
  return {
    id: result.body.organization.id,
    slug: result.body.organization.slug,
    body: result.body,
  };
}

/** Adds `user` to an organization as `actor`; returns the member. */
export async function addMember(
  module: AuthModule,
  actor: TestUser,
  organizationId: string,
  user: TestUser,
  roles?: string[],
): Promise<any> {
  const result = await call(module, "POST", `/organizations/${organizationId}/members`, {
    token: actor.token,
    body: { userId: user.user.id, ...(roles ? { roles } : {}) },
  });
  assert.equal(result.status, 201, JSON.stringify(result.body));
  return result.body.member;
}

/** Invites an email as `actor`; returns the invitation (with its token). */
export async function invite(
  module: AuthModule,
  actor: TestUser,
  organizationId: string,
  email: string,
  roles?: string[],
): Promise<any> {
  const result = await call(module, "POST", `/organizations/${organizationId}/invitations`, {
    token: actor.token,
    body: { email, ...(roles ? { roles } : {}) },
  });
  assert.ok(result.status === 201 || result.status === 200, JSON.stringify(result.body));
  return result.body.invitation;
}
