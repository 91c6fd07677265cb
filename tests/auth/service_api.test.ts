// deno-lint-ignore-file no-explicit-any
// `authModule.api`, with no HTTP, on PGlite and PostgreSQL: every operation of the routes called
// on the server with an explicit actor; the same refusals (status and code) as over HTTP; the
// same events; and one sequence run over HTTP and over `api` with the same results.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AuthActor,
  type AuthModule,
  type AuthOrganizationsOptions,
  ORGANIZATION_EVENT_NAMES,
  type OrganizationEventHandlers,
  type OrganizationEventName,
} from "../../src/auth/mod.ts";
import { HttpError } from "../../src/core/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { call, type CallResult, uniqueEmail } from "./helpers/http.ts";
import { createOrganization, newUser, organizationsModule } from "./helpers/organizations.ts";
import { latestMail } from "./helpers/verification.ts";

const PASSWORD = "correct horse battery";

/** An event as a handler received it. */
interface Delivered {
  name: OrganizationEventName;
  payload: any;
}

/** Handlers for every event, recording what they receive. */
function recording(into: Delivered[]): OrganizationEventHandlers {
  const handlers: Record<string, (payload: unknown) => void> = {};
  for (const name of ORGANIZATION_EVENT_NAMES) {
    handlers[name] = (payload) => void into.push({ name, payload });
  }
  return handlers as OrganizationEventHandlers;
}

/** The status and code of a rejected `api` call. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpError, `expected an HttpError, got ${error}`);
    return { status: error.status, code: error.code };
  }
  assert.fail("expected the call to be refused");
}

/** Asserts that HTTP and `api` refused alike, with the expected status and code. */
async function refusedAlike(
  http: Promise<CallResult>,
  api: Promise<unknown>,
  status: number,
  code: string,
): Promise<void> {
  const apiRefusal = refusal(api); // handled at once: a rejection never goes unobserved
  const answer = await http;
  assert.deepEqual(
    { status: answer.status, code: answer.body?.error?.code },
    { status, code },
    `HTTP: ${JSON.stringify(answer.body)}`,
  );
  assert.deepEqual(await apiRefusal, { status, code }, "api");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A value with what differs between two runs of one sequence replaced: ids, emails, slugs and
 * tokens by their order of first appearance, timestamps and cursors by a mark.
 */
function normalized(value: unknown): unknown {
  const seen = new Map<string, string>();
  const variable = (text: string, kind: string) => {
    if (!seen.has(text)) seen.set(text, `<${kind} ${seen.size}>`);
    return seen.get(text)!;
  };
  const walk = (item: unknown, key = ""): unknown => {
    if (typeof item === "string") {
      if (UUID.test(item)) return variable(item, "id");
      if (ISO.test(item)) return "<time>";
      if (key === "cursor") return "<cursor>";
      if (key === "email" || key === "slug" || key === "token") return variable(item, key);
      return item;
    }
    if (Array.isArray(item)) return item.map((inner) => walk(inner));
    if (item !== null && typeof item === "object") {
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, walk(v, k)]));
    }
    return item;
  };
  return walk(value);
}

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  const events: Delivered[] = [];

  before(async () => {
    db = getAdapter();
    module = await organizationsModule(db, {
      organizations: { canAddMember: () => true, hooks: recording(events) },
    });
  });

  function withOptions(organizations: AuthOrganizationsOptions): Promise<AuthModule> {
    return organizationsModule(db, { organizations });
  }

  describe(`${name}: api, every operation with no HTTP`, () => {
    it("signs up, verifies, reads the session and /me, and signs out", async () => {
      const { api } = module;
      const email = uniqueEmail("api");
      const signed = await api.signUp({ email: ` ${email.toUpperCase()} `, password: PASSWORD });
      assert.equal(signed.user.email, email);
      assert.equal(typeof signed.token, "string");
      assert.ok(ISO.test(signed.expiresAt));
      const actor: AuthActor = { token: signed.token };
      assert.deepEqual(await api.getSession(actor), {
        user: signed.user,
        expiresAt: signed.expiresAt,
      });
      // The sign-up mailed a token, as over HTTP; resending replaces it.
      await api.resendVerificationEmail(actor);
      const verified = await api.verifyEmail({ token: latestMail(module, signed.user.id).token });
      assert.equal(verified.user.emailVerified, true);
      assert.deepEqual(await refusal(api.resendVerificationEmail(actor)), {
        status: 409,
        code: "EMAIL_ALREADY_VERIFIED",
      });
      const again = await api.signIn({ email, password: PASSWORD });
      assert.ok("token" in again, "no second factor: the credential");
      assert.notEqual(again.token, signed.token);
      assert.deepEqual(await refusal(api.signIn({ email, password: "wrong password" })), {
        status: 401,
        code: "INVALID_CREDENTIALS",
      });
      const me = await api.me(actor);
      assert.equal(me.user.id, signed.user.id);
      assert.equal(me.user.emailVerified, true, "/me reads the user afresh");
      assert.deepEqual(me.organizations, []);
      assert.equal(me.activeOrganization, null);

      await api.signOut(actor);
      assert.deepEqual(await refusal(api.getSession(actor)), {
        status: 401,
        code: "UNAUTHENTICATED",
      });
      assert.equal((await api.getSession({ token: again.token })).user.id, signed.user.id);
      assert.deepEqual(await refusal(api.signUp({ email, password: PASSWORD })), {
        status: 409,
        code: "EMAIL_TAKEN",
      });
      await assert.rejects(
        api.signUp({ email: "not an address", password: "short" }),
        (error: unknown) => {
          assert.ok(error instanceof HttpError);
          assert.equal(error.code, "VALIDATION_ERROR");
          const issues = error.extra.issues as { path: string }[];
          assert.deepEqual(issues.map((issue) => issue.path).sort(), [
            "input.email",
            "input.password",
          ]);
          return true;
        },
      );
    });

    it("runs the organizations, members and invitations operations and emits their events", async () => {
      const { api } = module;
      events.length = 0;
      const owner = await api.signUp({ email: uniqueEmail("owner"), password: PASSWORD });
      const ownerActor: AuthActor = { token: owner.token };
      const colleague = await api.createUser({
        email: uniqueEmail("colleague"),
        password: PASSWORD,
      });
      const inviteeEmail = uniqueEmail("invitee");
      const invitee = await api.createUser({
        email: inviteeEmail,
        password: PASSWORD,
        emailVerified: true,
      });

      const created = await api.createOrganization(ownerActor, { name: "Acme Ltd" });
      assert.equal(created.organization.slug, "acme-ltd");
      assert.deepEqual(created.member.roles, ["owner"]);
      const organizationId = created.organization.id;
      // With a credential, a first organization becomes the credential's active one.
      assert.deepEqual(await api.getActiveOrganization(ownerActor), created);
      assert.deepEqual(await api.getOrganization(ownerActor, { organizationId }), created);
      const listed = await api.listOrganizations(ownerActor, { pageSize: 10 });
      assert.deepEqual(listed, { organizations: [created], cursor: null, hasNextPage: false });
      const updated = await api.updateOrganization(ownerActor, {
        organizationId,
        name: "Acme",
        metadata: { plan: "pro" },
      });
      assert.equal(updated.organization.name, "Acme");
      assert.deepEqual(updated.organization.metadata, { plan: "pro" });

      const added = await api.addMember(ownerActor, { organizationId, userId: colleague.id });
      assert.deepEqual(added.roles, ["member"]);
      const members = await api.listMembers(ownerActor, { organizationId, pageSize: 1 });
      assert.equal(members.members.length, 1);
      assert.equal(members.hasNextPage, true);
      const rest = await api.listMembers({ userId: colleague.id }, {
        organizationId,
        cursor: members.cursor!,
      });
      assert.deepEqual(rest.members.map((m) => m.id), [added.id]);
      const promoted = await api.updateMemberRoles(ownerActor, {
        organizationId,
        memberId: added.id,
        roles: ["admin"],
      });
      assert.deepEqual(promoted.member.roles, ["admin"]);

      // The colleague, now an admin, invites on the server's behalf with a `{ userId }` actor.
      const colleagueActor: AuthActor = { userId: colleague.id };
      const first = await api.createInvitation(colleagueActor, {
        organizationId,
        email: inviteeEmail,
      });
      assert.equal(first.rotated, false);
      assert.equal(typeof first.invitation.token, "string");
      const resent = await api.createInvitation(colleagueActor, {
        organizationId,
        email: ` ${inviteeEmail.toUpperCase()} `,
      });
      assert.equal(resent.rotated, true);
      assert.equal(resent.invitation.id, first.invitation.id);
      const pending = await api.listInvitations(ownerActor, { organizationId });
      assert.deepEqual(pending.invitations.map((i) => i.status), ["pending"]);
      const mine = await api.listMyInvitations({ userId: invitee.id });
      assert.deepEqual(mine.invitations.map((e) => e.organization.id), [organizationId]);
      assert.deepEqual(
        await refusal(api.respondToInvitation({ userId: invitee.id }, {
          invitationId: first.invitation.id,
          action: "accept",
          token: first.invitation.token,
        })),
        { status: 403, code: "INVALID_INVITATION_TOKEN" },
        "re-sending replaced the token",
      );
      const accepted = await api.respondToInvitation({ userId: invitee.id }, {
        invitationId: first.invitation.id,
        action: "accept",
        token: resent.invitation.token,
      });
      assert.ok("member" in accepted);
      assert.equal(accepted.invitation.status, "accepted");
      assert.equal(accepted.member.userId, invitee.id);
      // A `{ userId }` actor has no credential: no active organization was set.
      assert.equal((await api.me({ userId: invitee.id })).activeOrganization, null);

      const toReject = await api.createInvitation(ownerActor, {
        organizationId,
        email: uniqueEmail("rejecting"),
      });
      const rejecter = await api.createUser({
        email: toReject.invitation.email,
        password: PASSWORD,
        emailVerified: true,
      });
      const rejected = await api.respondToInvitation({ userId: rejecter.id }, {
        invitationId: toReject.invitation.id,
        action: "reject",
        token: toReject.invitation.token,
      });
      assert.equal(rejected.invitation.status, "rejected");
      const toCancel = await api.createInvitation(ownerActor, {
        organizationId,
        email: uniqueEmail("canceled"),
      });
      const canceled = await api.cancelInvitation(colleagueActor, {
        invitationId: toCancel.invitation.id,
        token: toCancel.invitation.token,
      });
      assert.equal(canceled.invitation.status, "canceled");

      assert.equal(await api.setActiveOrganization(ownerActor, { organizationId: null }), null);
      assert.equal(await api.getActiveOrganization(ownerActor), null);
      const active = await api.setActiveOrganization(ownerActor, { organizationId });
      assert.equal(active?.organization.id, organizationId);
      await api.removeMember({ userId: invitee.id }, {
        organizationId,
        memberId: accepted.member.id,
      });
      await api.removeMember(ownerActor, { organizationId, memberId: added.id });
      await api.deleteOrganization(ownerActor, { organizationId });
      assert.deepEqual(await refusal(api.getOrganization(ownerActor, { organizationId })), {
        status: 404,
        code: "NOT_FOUND",
      });
      assert.equal(await api.getActiveOrganization(ownerActor), null, "deletion clears it");

      await api.hooks!.drain();
      // Delivery order is not promised across events: compare them as a sorted list.
      const names = events.map((event) => event.name).sort();
      assert.deepEqual(
        names,
        [
          "organizationCreated",
          "organizationUpdated",
          "memberAdded",
          "memberRolesChanged",
          "invitationCreated",
          "invitationCreated",
          "memberAdded",
          "invitationAccepted",
          "invitationCreated",
          "invitationRejected",
          "invitationCreated",
          "invitationCanceled",
          "memberRemoved",
          "memberRemoved",
          "organizationDeleted",
        ].sort(),
      );
      const byName = (n: string) => events.filter((event) => event.name === n);
      assert.deepEqual(
        byName("memberAdded").map((e) => [e.payload.via, e.payload.actorUserId]).sort(),
        [["added", owner.user.id], ["invitation", invitee.id]].sort(),
      );
      assert.deepEqual(byName("organizationUpdated")[0].payload.changed, ["name", "metadata"]);
      const rotated = byName("invitationCreated").filter((e) => e.payload.rotated);
      assert.deepEqual(rotated.map((e) => e.payload.invitation.token), [resent.invitation.token]);
      assert.equal(byName("invitationCanceled")[0].payload.actorUserId, colleague.id);
    });

    it("adds a member on the server's say (one argument) and as an actor (two)", async () => {
      const plain = await withOptions({});
      const owner = await newUser(plain, "owner");
      const { id: organizationId } = await createOrganization(plain, owner);
      const user = await plain.api.createUser({ email: uniqueEmail(), password: PASSWORD });
      // No `canAddMember` policy: the owner is refused, the server is not.
      await refusedAlike(
        call(plain, "POST", `/organizations/${organizationId}/members`, {
          token: owner.token,
          body: { userId: user.id },
        }),
        plain.api.addMember({ token: owner.token }, { organizationId, userId: user.id }),
        403,
        "DIRECT_ADD_NOT_ALLOWED",
      );
      const member = await plain.api.addMember({ organizationId, userId: user.id });
      assert.equal(member.userId, user.id);
    });
  });

  describe(`${name}: api, refusals exactly as over HTTP`, () => {
    it("refuses members without the rights, non-members, bad input and bad credentials alike", async () => {
      const { api } = module;
      const owner = await newUser(module, "owner");
      const member = await newUser(module, "member");
      const stranger = await newUser(module, "stranger");
      const { id: organizationId } = await createOrganization(module, owner);
      const added = await api.addMember({ organizationId, userId: member.user.id });
      const other = await api.createUser({ email: uniqueEmail(), password: PASSWORD });
      const asMember: AuthActor = { token: member.token };
      const asStranger: AuthActor = { userId: stranger.user.id };
      const path = `/organizations/${organizationId}`;

      await refusedAlike(
        call(module, "POST", `${path}/members`, {
          token: member.token,
          body: { userId: other.id },
        }),
        api.addMember(asMember, { organizationId, userId: other.id }),
        403,
        "FORBIDDEN",
      );
      await refusedAlike(
        call(module, "PATCH", path, { token: member.token, body: { name: "Mine now" } }),
        api.updateOrganization(asMember, { organizationId, name: "Mine now" }),
        403,
        "FORBIDDEN",
      );
      await refusedAlike(
        call(module, "DELETE", path, { token: member.token }),
        api.deleteOrganization(asMember, { organizationId }),
        403,
        "FORBIDDEN",
      );
      await refusedAlike(
        call(module, "POST", `${path}/invitations`, {
          token: member.token,
          body: { email: uniqueEmail() },
        }),
        api.createInvitation(asMember, { organizationId, email: uniqueEmail() }),
        403,
        "FORBIDDEN",
      );
      await refusedAlike(
        call(module, "GET", `${path}/invitations`, { token: member.token }),
        api.listInvitations(asMember, { organizationId }),
        403,
        "FORBIDDEN",
      );
      await refusedAlike(
        call(module, "PATCH", `${path}/members/${added.id}`, {
          token: member.token,
          body: { roles: ["owner"] },
        }),
        api.updateMemberRoles(asMember, { organizationId, memberId: added.id, roles: ["owner"] }),
        403,
        "FORBIDDEN",
      );
      const ownerMember = (await api.listMembers({ userId: owner.user.id }, { organizationId }))
        .members.find((m) => m.userId === owner.user.id)!;
      await refusedAlike(
        call(module, "DELETE", `${path}/members/${ownerMember.id}`, { token: owner.token }),
        api.removeMember({ userId: owner.user.id }, { organizationId, memberId: ownerMember.id }),
        409,
        "LAST_OWNER",
      );
      // Non-members learn nothing: 404 for everything inside the organization.
      await refusedAlike(
        call(module, "GET", path, { token: stranger.token }),
        api.getOrganization(asStranger, { organizationId }),
        404,
        "NOT_FOUND",
      );
      await refusedAlike(
        call(module, "GET", `${path}/members`, { token: stranger.token }),
        api.listMembers(asStranger, { organizationId }),
        404,
        "NOT_FOUND",
      );
      await refusedAlike(
        call(module, "POST", "/organizations/active", {
          token: stranger.token,
          body: { organizationId },
        }),
        api.setActiveOrganization({ token: stranger.token }, { organizationId }),
        404,
        "NOT_FOUND",
      );
      // The same input schemas: the same 400, the same messages.
      await refusedAlike(
        call(module, "POST", "/organizations", { token: owner.token, body: { name: "  " } }),
        api.createOrganization({ token: owner.token }, { name: "  " }),
        400,
        "VALIDATION_ERROR",
      );
      await refusedAlike(
        call(module, "PATCH", path, { token: owner.token, body: {} }),
        api.updateOrganization({ token: owner.token }, { organizationId }),
        400,
        "VALIDATION_ERROR",
      );
      await refusedAlike(
        call(module, "POST", `${path}/invitations`, {
          token: owner.token,
          body: { email: uniqueEmail(), roles: ["boss"] },
        }),
        api.createInvitation({ token: owner.token }, {
          organizationId,
          email: uniqueEmail(),
          roles: ["boss"],
        }),
        400,
        "VALIDATION_ERROR",
      );
      await refusedAlike(
        call(module, "GET", "/organizations?pageSize=0", { token: owner.token }),
        api.listOrganizations({ token: owner.token }, { pageSize: 0 }),
        400,
        "INVALID_PAGE_SIZE",
      );
      await refusedAlike(
        call(module, "GET", "/organizations?cursor=forged", { token: owner.token }),
        api.listOrganizations({ token: owner.token }, { cursor: "forged" }),
        400,
        "INVALID_CURSOR",
      );
      // Credentials: an unknown token is a 401 either way.
      const unknown = "A".repeat(43);
      await refusedAlike(
        call(module, "GET", "/organizations", { token: unknown }),
        api.listOrganizations({ token: unknown }),
        401,
        "UNAUTHENTICATED",
      );
      // An unverified invitee cannot answer: the same 403.
      const unverifiedEmail = uniqueEmail("unverified");
      const unverified = await api.signUp({ email: unverifiedEmail, password: PASSWORD });
      const invitation = (await api.createInvitation({ token: owner.token }, {
        organizationId,
        email: unverifiedEmail,
      })).invitation;
      await refusedAlike(
        call(module, "PATCH", `/organizations/invitations/${invitation.id}`, {
          token: unverified.token,
          body: { action: "accept", token: invitation.token },
        }),
        api.respondToInvitation({ token: unverified.token }, {
          invitationId: invitation.id,
          action: "accept",
          token: invitation.token,
        }),
        403,
        "EMAIL_NOT_VERIFIED",
      );
    });

    it("applies the limits alike", async () => {
      const limited = await withOptions({ organizationLimit: 1, invitationLimit: 1 });
      const owner = await newUser(limited, "owner");
      const { id: organizationId } = await createOrganization(limited, owner);
      await refusedAlike(
        call(limited, "POST", "/organizations", { token: owner.token, body: { name: "Second" } }),
        limited.api.createOrganization({ userId: owner.user.id }, { name: "Second" }),
        403,
        "ORGANIZATION_LIMIT_REACHED",
      );
      await limited.api.createInvitation({ userId: owner.user.id }, {
        organizationId,
        email: uniqueEmail(),
      });
      await refusedAlike(
        call(limited, "POST", `/organizations/${organizationId}/invitations`, {
          token: owner.token,
          body: { email: uniqueEmail() },
        }),
        limited.api.createInvitation({ userId: owner.user.id }, {
          organizationId,
          email: uniqueEmail(),
        }),
        403,
        "INVITATION_LIMIT_REACHED",
      );
    });

    it("checks the actor: unknown users, operations needing a credential, malformed actors", async () => {
      const { api } = module;
      assert.deepEqual(await refusal(api.me({ userId: crypto.randomUUID() })), {
        status: 404,
        code: "USER_NOT_FOUND",
      });
      const user = await newUser(module);
      await assert.rejects(api.signOut({ userId: user.user.id }), TypeError);
      await assert.rejects(api.getActiveOrganization({ userId: user.user.id }), TypeError);
      await assert.rejects(
        api.setActiveOrganization({ userId: user.user.id }, { organizationId: null }),
        TypeError,
      );
      await assert.rejects(api.me({} as AuthActor), TypeError);
      await assert.rejects(api.me(null as unknown as AuthActor), TypeError);
      // The context of a request is an actor, with its credential.
      const context = await api.getRequestAuth(
        new Request("http://localhost/", { headers: { authorization: `Bearer ${user.token}` } }),
      );
      assert.ok(context);
      const created = await api.createOrganization(context, { name: "From a request" });
      const fresh = await api.getActiveOrganization({ token: user.token });
      assert.equal(fresh?.organization.id, created.organization.id);
    });

    it("throws an Error for the organizations operations with organizations: false", async () => {
      const without = await organizationsModule(db, { organizations: false });
      const user = await without.api.signUp({ email: uniqueEmail(), password: PASSWORD });
      await assert.rejects(
        without.api.createOrganization({ token: user.token }, { name: "Nope" }),
        /organizations feature is disabled/,
      );
      const me = await without.api.me({ token: user.token });
      assert.deepEqual(me.organizations, []);
      assert.equal(me.activeOrganization, null);
    });
  });

  describe(`${name}: api and HTTP give the same results`, () => {
    /** One operation, as a route call and as an `api` call. */
    interface Step {
      http: () => Promise<CallResult>;
      api: () => Promise<unknown>;
    }

    /**
     * A sequence of operations on fresh users: a creator, a member and an invitee. Run once
     * over HTTP and once over `api` with the same inputs, it yields one result per step.
     */
    async function sequence(via: "http" | "api"): Promise<unknown[]> {
      const owner = await newUser(module, `${via}-owner`);
      const invitee = await newUser(module, `${via}-invitee`);
      const colleague = await newUser(module, `${via}-colleague`);
      const as = (user: { token: string }) => ({ token: user.token });
      const results: unknown[] = [];
      const run = async (step: Step) => {
        if (via === "http") {
          const answer = await step.http();
          results.push(answer.status === 204 ? null : answer.body);
          return answer.body;
        }
        const value = await step.api();
        results.push(value ?? null);
        return value as any;
      };
      const slug = `${via}-team-${crypto.randomUUID().slice(0, 8)}`;
      const created = await run({
        http: () =>
          call(module, "POST", "/organizations", {
            token: owner.token,
            body: { name: "Team", slug, logoUrl: "HTTPS://Example.com/logo.png" },
          }),
        api: () =>
          module.api.createOrganization(as(owner), {
            name: "Team",
            slug,
            logoUrl: "HTTPS://Example.com/logo.png",
          }),
      });
      const organizationId = created.organization.id;
      const path = `/organizations/${organizationId}`;
      await run({
        http: () =>
          call(module, "PATCH", path, { token: owner.token, body: { metadata: { tier: 2 } } }),
        api: () =>
          module.api.updateOrganization(as(owner), { organizationId, metadata: { tier: 2 } }),
      });
      // The same user joins through the server in both runs, then answers alike.
      await module.api.addMember({ organizationId, userId: colleague.user.id });
      const invitation = await run({
        http: () =>
          call(module, "POST", `${path}/invitations`, {
            token: owner.token,
            body: { email: invitee.user.email, roles: ["admin"] },
          }),
        api: () =>
          module.api.createInvitation(as(owner), {
            organizationId,
            email: invitee.user.email,
            roles: ["admin"],
          }).then(({ invitation }) => ({ invitation })),
      });
      await run({
        http: () => call(module, "GET", `${path}/invitations`, { token: owner.token }),
        api: () => module.api.listInvitations(as(owner), { organizationId }),
      });
      await run({
        http: () => call(module, "GET", "/organizations/invitations", { token: invitee.token }),
        api: () => module.api.listMyInvitations(as(invitee)),
      });
      const accepted = await run({
        http: () =>
          call(module, "PATCH", `/organizations/invitations/${invitation.invitation.id}`, {
            token: invitee.token,
            body: { action: "accept", token: invitation.invitation.token },
          }),
        api: () =>
          module.api.respondToInvitation(as(invitee), {
            invitationId: invitation.invitation.id,
            action: "accept",
            token: invitation.invitation.token,
          }),
      });
      await run({
        http: () => call(module, "GET", `${path}/members?pageSize=2`, { token: invitee.token }),
        api: () => module.api.listMembers(as(invitee), { organizationId, pageSize: 2 }),
      });
      const colleagueMember = (await module.api.listMembers(as(owner), { organizationId }))
        .members.find((m) => m.userId === colleague.user.id)!;
      await run({
        http: () =>
          call(module, "PATCH", `${path}/members/${colleagueMember.id}`, {
            token: invitee.token,
            body: { roles: ["member", "admin"] },
          }),
        api: () =>
          module.api.updateMemberRoles(as(invitee), {
            organizationId,
            memberId: colleagueMember.id,
            roles: ["member", "admin"],
          }),
      });
      await run({
        http: () => call(module, "GET", "/me", { token: invitee.token }),
        api: () => module.api.me(as(invitee)),
      });
      await run({
        http: () => call(module, "GET", "/organizations/active", { token: invitee.token }),
        api: () => module.api.getActiveOrganization(as(invitee)),
      });
      await run({
        http: () =>
          call(module, "DELETE", `${path}/members/${accepted.member.id}`, {
            token: invitee.token,
          }),
        api: () =>
          module.api.removeMember(as(invitee), { organizationId, memberId: accepted.member.id }),
      });
      await run({
        http: () => call(module, "GET", "/organizations", { token: owner.token }),
        api: () => module.api.listOrganizations(as(owner)),
      });
      await run({
        http: () => call(module, "DELETE", path, { token: owner.token }),
        api: () => module.api.deleteOrganization(as(owner), { organizationId }),
      });
      return results;
    }

    it("runs one sequence over HTTP and over api with equal results", async () => {
      const http = await sequence("http");
      const api = await sequence("api");
      assert.equal(api.length, http.length);
      assert.deepEqual(normalized(api), normalized(http));
    });
  });
});
