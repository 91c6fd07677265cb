/**
 * `autoCreateOrganization`: an organization for every new user, created in the transaction that
 * creates the user. A taken slug gets a suffix (`-2`, `-3`, …, then random) instead of failing
 * the sign-up.
 *
 * @module
 */

import { HttpError } from "../../core/mod.ts";
import type { SqlTransaction } from "../../sql/mod.ts";
import type { UserCreatedHook } from "../account/account_service.ts";
import type { AuthUser } from "../account/user.ts";
import type { OrganizationsContext } from "./context.ts";
import { insertOrganization } from "./organization_store.ts";
import { insertMember } from "./member_store.ts";
import type { OrganizationRow } from "./resources.ts";
import { toMember, toOrganization } from "./resources.ts";
import { normalizeSlug, slugProblem } from "./slug.ts";

const NUMBERED_ATTEMPTS = 5;
const RANDOM_ATTEMPTS = 5;

function candidateSlug(base: string, attempt: number): string {
  if (attempt === 1) return base;
  const suffix = attempt <= NUMBERED_ATTEMPTS
    ? `-${attempt}`
    : `-${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
  return `${base.slice(0, 63 - suffix.length).replace(/-+$/, "")}${suffix}`;
}

function baseSlug(requested: string, user: AuthUser): string {
  const slug = normalizeSlug(requested);
  return slugProblem(slug) === null ? slug : `org-${user.id}`;
}

function organizationName(requested: string): string {
  const name = requested.trim().slice(0, 120).trim();
  return name === "" ? "Organization" : name;
}

/** The user-created hook of the feature, or `undefined` when auto-creation is off. */
export function autoCreateHook(context: OrganizationsContext): UserCreatedHook | undefined {
  const auto = context.options.autoCreateOrganization;
  if (!auto) return undefined;
  const { tables, options, notifications } = context;
  return async function createFirstOrganization(tx: SqlTransaction, user: AuthUser) {
    const name = organizationName(auto.name(user.email));
    const base = baseSlug(auto.slug(user.id), user);
    let organization: OrganizationRow | undefined;
    for (let attempt = 1; !organization; attempt++) {
      try {
        // A savepoint per attempt: a slug collision rolls back only the failed insert.
        organization = await tx.transaction((savepoint) =>
          insertOrganization(savepoint, tables, {
            name,
            slug: candidateSlug(base, attempt),
            logoUrl: null,
            metadata: null,
            createdBy: user.id,
          })
        );
      } catch (error) {
        const taken = error instanceof HttpError && error.code === "SLUG_TAKEN";
        if (!taken || attempt >= NUMBERED_ATTEMPTS + RANDOM_ATTEMPTS) throw error;
      }
    }
    const member = await insertMember(tx, tables, {
      organizationId: organization.o_id,
      userId: user.id,
      roles: options.creatorRoles,
    });
    if (!member) throw new Error("A new organization cannot already have its creator");
    await notifications.emit(tx, "organizationCreated", {
      organization: toOrganization(organization),
      member: toMember(member),
      actorUserId: user.id,
    });
    return organization.o_id;
  };
}
