/**
 * Adding a member without an invitation: by an owner or admin through
 * `POST /organizations/:organizationId/members` when `canAddMember` allows it, or by the server
 * through `module.api.addMember()`. Nobody can otherwise put a user into an organization they did
 * not accept to join (finding 5 of the security review: a stranger added any user id they had
 * seen, and their organization then filled the victim's `/me`).
 *
 * The policy is asked before any transaction (it may be slow, and must not run under a lock);
 * the insert then runs in a transaction that locks the organization row, checks the caller's
 * roles again (a demotion may have committed meanwhile) and `membershipLimit`.
 *
 * @module
 */

import type { AuthUser } from "../users.ts";
import { findUserById, isUuid, publicUser } from "../users.ts";
import { authError, notFound } from "../errors.ts";
import { hasOwner, requireEntry, requireManager, requireOwner } from "./access.ts";
import { inTransaction, type OrganizationsContext } from "./context.ts";
import { admitMember } from "./limits.ts";
import { insertMember } from "./organization_store.ts";
import { type Member, toMember, toOrganization } from "./resources.ts";

/** What to add, and who asks (`null`: the server, through `module.api.addMember()`). */
export interface AddMemberInput {
  organizationId: string;
  userId: string;
  roles: readonly string[];
  actor: AuthUser | null;
}

function directAddRefused(): Error {
  return authError(
    "DIRECT_ADD_NOT_ALLOWED",
    "Adding a user directly is not allowed: invite them " +
      "(POST /organizations/:organizationId/invitations) and let them accept",
  );
}

function userNotFound(): Error {
  return authError("USER_NOT_FOUND", "User not found");
}

/** 403 `FORBIDDEN` unless the caller's entry may add a member with `newRoles`. */
function requireAdder(
  entry: Parameters<typeof requireManager>[0],
  newRoles: readonly string[],
): void {
  requireManager(entry, "add members");
  if (hasOwner(newRoles)) requireOwner(entry, "grant the owner role");
}

/**
 * Adds a user as a member, in the order of the checks: the caller's rights (404 for a
 * non-member, 403 `FORBIDDEN`), the `canAddMember` policy (403 `DIRECT_ADD_NOT_ALLOWED`, before
 * the user is even looked up, so a refused caller learns nothing about user ids), the user
 * (404 `USER_NOT_FOUND`), `membershipLimit` (403 `MEMBERSHIP_LIMIT_REACHED`), an existing
 * membership (409 `ALREADY_MEMBER`). The server (`actor: null`) skips the caller's checks and the
 * policy.
 */
export async function addMember(
  context: OrganizationsContext,
  input: AddMemberInput,
): Promise<Member> {
  const { db, tables, options, notifications } = context;
  const { actor, roles } = input;
  if (actor) {
    const entry = await requireEntry(db, tables, input.organizationId, actor.id);
    requireAdder(entry, roles);
    const policy = options.canAddMember;
    if (!policy) throw directAddRefused();
    const user = await findUserById(db, tables, input.userId);
    if (!user) throw userNotFound();
    const allowed = await policy({
      actor,
      organization: toOrganization(entry),
      user: publicUser(user),
      roles: Object.freeze([...roles]),
    });
    if (allowed !== true) throw directAddRefused();
  } else {
    // The server's call: no caller, no policy; ids that cannot be ones are not found.
    if (!isUuid(input.organizationId)) throw notFound("Organization");
    if (!(await findUserById(db, tables, input.userId))) throw userNotFound();
  }
  return await inTransaction(context, async (tx) => {
    const refused = await admitMember(tx, context, input.organizationId, input.userId);
    if (refused === "gone") throw notFound("Organization");
    if (actor) {
      // Under the lock: the caller's roles as they are now.
      requireAdder(await requireEntry(tx, tables, input.organizationId, actor.id), roles);
    }
    if (refused) throw refused;
    const inserted = await insertMember(tx, tables, {
      organizationId: input.organizationId,
      userId: input.userId,
      roles,
    });
    if (!inserted) throw authError("ALREADY_MEMBER", "The user is already a member");
    const member = toMember(inserted);
    await notifications.emit(tx, "memberAdded", {
      member,
      via: "added",
      actorUserId: actor?.id ?? null,
    });
    return member;
  });
}
