// The typed client's types, checked by the compiler: `deno test` type-checks this file (the CI's
// `deno task test` runs it), and a mismatch is a compile error that fails the run. Each check
// ties a client method to the route schema it is derived from, so changing a route's schema
// without the client following (or the reverse) fails here. At run time the file has one test.
import { it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import type { signInBody, signUpBody } from "../../src/auth/account/credential_inputs.ts";
import { exactSchema } from "../../src/auth/http/exact_schema.ts";
import type { Equals } from "../../src/auth/http/exact_schema.ts";
import type {
  invitationBodies,
  memberBodies,
  organizationBodies,
  setActiveOrganizationBody,
} from "../../src/auth/organizations/bodies.ts";
import type * as responses from "../helpers/auth_responses.ts";
import type { twoFactorChallengeResponse } from "../../src/auth/two_factor/two_factor_inputs.ts";
import type { verifyEmailBody } from "../../src/auth/account/credential_inputs.ts";
import type { pageQuery } from "../../src/auth/organizations/input.ts";
import type { AuthContract } from "../../src/auth/mod.ts";
import {
  type AuthClient,
  type AuthClientErrorCode,
  type AuthResult,
  createAuthClient,
} from "../../src/client/mod.ts";

/** Compiles only when `T` is `true`. */
function assertType<T extends true>(_proof: T): void {}

type Argument<F, N extends number = 0> = F extends (...args: infer A) => unknown ? A[N] : never;
type Result<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;
type Out<S extends z.ZodType> = z.output<S>;
type In<S extends z.ZodType> = z.input<S>;
type Orgs = AuthClient["organizations"];
type Members = AuthClient["members"];
type Invitations = AuthClient["invitations"];

// Request bodies: the client takes exactly what the route's schema accepts (z.input).
assertType<Equals<Argument<AuthClient["signUp"]>, In<typeof signUpBody>>>(true);
assertType<Equals<Argument<AuthClient["signIn"]>, In<typeof signInBody>>>(true);
assertType<Equals<Argument<AuthClient["verifyEmail"]>, In<typeof verifyEmailBody>>>(true);
assertType<
  Equals<Argument<Orgs["create"]>, In<ReturnType<typeof organizationBodies>["create"]>>
>(true);
assertType<
  Equals<Argument<Orgs["update"], 1>, In<ReturnType<typeof organizationBodies>["update"]>>
>(true);
assertType<
  Equals<Argument<Orgs["setActive"]>, In<typeof setActiveOrganizationBody>["organizationId"]>
>(true);
assertType<Equals<Argument<Members["add"], 1>, In<ReturnType<typeof memberBodies>["add"]>>>(true);
assertType<
  Equals<Argument<Members["updateRoles"], 2>, In<ReturnType<typeof memberBodies>["updateRoles"]>>
>(true);
assertType<
  Equals<Argument<Invitations["create"], 1>, In<ReturnType<typeof invitationBodies>["create"]>>
>(true);

// Results: `data` is exactly the route's response schema's output.
assertType<Equals<Result<AuthClient["signUp"]>, Out<typeof responses.credentialResponse>>>(true);
assertType<
  Equals<
    Result<AuthClient["signIn"]>,
    Out<typeof responses.credentialResponse> | Out<typeof twoFactorChallengeResponse>
  >
>(true);
assertType<Equals<Result<AuthClient["signOut"]>, null>>(true);
assertType<Equals<Result<AuthClient["session"]>, Out<typeof responses.sessionResponse>>>(true);
assertType<Equals<Result<AuthClient["me"]>, Out<typeof responses.meResponse>>>(true);
assertType<Equals<Result<AuthClient["verifyEmail"]>, Out<typeof responses.verifyEmailResponse>>>(
  true,
);
assertType<
  Equals<Result<Orgs["create"]>, Out<typeof responses.createdOrganizationResponse>>
>(true);
assertType<Equals<Result<Orgs["list"]>, Out<typeof responses.organizationPageResponse>>>(true);
assertType<Equals<Result<Orgs["get"]>, Out<typeof responses.organizationEntryResponse>>>(true);
assertType<Equals<Result<Orgs["update"]>, Out<typeof responses.updatedOrganizationResponse>>>(
  true,
);
assertType<Equals<Result<Orgs["delete"]>, null>>(true);
assertType<Equals<Result<Orgs["getActive"]>, Out<typeof responses.activeOrganizationResponse>>>(
  true,
);
assertType<Equals<Result<Orgs["setActive"]>, Out<typeof responses.activeOrganizationResponse>>>(
  true,
);
assertType<Equals<Result<Members["list"]>, Out<typeof responses.memberPageResponse>>>(true);
assertType<Equals<Result<Members["add"]>, Out<typeof responses.memberEntryResponse>>>(true);
assertType<Equals<Result<Members["updateRoles"]>, Out<typeof responses.memberEntryResponse>>>(
  true,
);
assertType<Equals<Result<Members["remove"]>, null>>(true);
assertType<Equals<Result<Invitations["list"]>, Out<typeof responses.invitationPageResponse>>>(
  true,
);
assertType<
  Equals<Result<Invitations["create"]>, Out<typeof responses.createdInvitationResponse>>
>(true);
assertType<
  Equals<Result<Invitations["listMine"]>, Out<typeof responses.pendingInvitationPageResponse>>
>(true);
assertType<
  Equals<Result<Invitations["accept"]>, Out<typeof responses.acceptedInvitationResponse>>
>(true);
assertType<
  Equals<Result<Invitations["reject"]>, Out<typeof responses.respondedInvitationResponse>>
>(true);

// AuthContract (the auth entry's named types, which `authModule.api` is typed with too) is the
// same set: each operation's body and answer are exactly its schemas' input and output.
type C = AuthContract;
assertType<Equals<C["signUp"]["body"], In<typeof signUpBody>>>(true);
assertType<Equals<C["signIn"]["body"], In<typeof signInBody>>>(true);
assertType<Equals<C["verifyEmail"]["body"], In<typeof verifyEmailBody>>>(true);
assertType<
  Equals<C["createOrganization"]["body"], In<ReturnType<typeof organizationBodies>["create"]>>
>(true);
assertType<
  Equals<C["updateOrganization"]["body"], In<ReturnType<typeof organizationBodies>["update"]>>
>(true);
assertType<Equals<C["setActiveOrganization"]["body"], In<typeof setActiveOrganizationBody>>>(true);
assertType<Equals<C["addMember"]["body"], In<ReturnType<typeof memberBodies>["add"]>>>(true);
assertType<
  Equals<C["updateMemberRoles"]["body"], In<ReturnType<typeof memberBodies>["updateRoles"]>>
>(true);
assertType<
  Equals<C["createInvitation"]["body"], In<ReturnType<typeof invitationBodies>["create"]>>
>(true);
assertType<Equals<C["listOrganizations"]["query"], In<typeof pageQuery>>>(true);
assertType<Equals<C["signUp"]["response"], Out<typeof responses.credentialResponse>>>(true);
assertType<Equals<C["session"]["response"], Out<typeof responses.sessionResponse>>>(true);
assertType<Equals<C["me"]["response"], Out<typeof responses.meResponse>>>(true);
assertType<Equals<C["verifyEmail"]["response"], Out<typeof responses.verifyEmailResponse>>>(true);
assertType<
  Equals<C["listOrganizations"]["response"], Out<typeof responses.organizationPageResponse>>
>(true);
assertType<
  Equals<C["updateOrganization"]["response"], Out<typeof responses.updatedOrganizationResponse>>
>(true);
assertType<
  Equals<C["getActiveOrganization"]["response"], Out<typeof responses.activeOrganizationResponse>>
>(true);
assertType<Equals<C["listMembers"]["response"], Out<typeof responses.memberPageResponse>>>(true);
assertType<Equals<C["addMember"]["response"], Out<typeof responses.memberEntryResponse>>>(true);
assertType<
  Equals<C["listInvitations"]["response"], Out<typeof responses.invitationPageResponse>>
>(true);
assertType<
  Equals<C["createInvitation"]["response"], Out<typeof responses.createdInvitationResponse>>
>(true);
assertType<
  Equals<C["listMyInvitations"]["response"], Out<typeof responses.pendingInvitationPageResponse>>
>(true);
assertType<
  Equals<C["acceptInvitation"]["response"], Out<typeof responses.acceptedInvitationResponse>>
>(true);
assertType<
  Equals<C["respondToInvitation"]["response"], Out<typeof responses.respondedInvitationResponse>>
>(true);

// The shapes themselves, pinned: a schema change that alters what clients send or get must be
// deliberate (update these lines with it).
assertType<Equals<Argument<AuthClient["signUp"]>, { email: string; password: string }>>(true);
assertType<
  Equals<
    Extract<Result<AuthClient["signIn"]>, { token: string }>["user"],
    { id: string; email: string; role: string; emailVerified: boolean }
  >
>(true);
assertType<Equals<Result<Invitations["create"]>["invitation"]["token"], string>>(true);
assertType<
  Equals<
    Result<Invitations["accept"]>["invitation"]["status"],
    "pending" | "accepted" | "rejected" | "canceled" | "expired"
  >
>(true);

// The error code is a union of string literals, not `string`.
assertType<Equals<string extends AuthClientErrorCode ? true : false, false>>(true);
assertType<"EMAIL_TAKEN" extends AuthClientErrorCode ? true : false>(true);
assertType<"NETWORK_ERROR" extends AuthClientErrorCode ? true : false>(true);

// A declared schema type cannot drift from its schema: exactSchema refuses a mismatch.
const declared = exactSchema<{ email: string }>();
declared(z.object({ email: z.string() }));
// @ts-expect-error a field the declared type lacks
declared(z.object({ email: z.string(), name: z.string() }));
// @ts-expect-error a field of another type
declared(z.object({ email: z.number() }));
// @ts-expect-error an input that differs from the output
declared(z.object({ email: z.string().transform((value) => value.length) }));

/** Calls that must not compile; never run (the client has no server here). */
function misuses(client: AuthClient): void {
  // @ts-expect-error the password is required
  client.signUp({ email: "ada@example.com" });
  // @ts-expect-error an email is a string
  client.signIn({ email: 42, password: "correct horse" });
  // @ts-expect-error no such field on the organization body
  client.organizations.create({ name: "Acme", owner: "me" });
  // @ts-expect-error roles are a list
  client.members.updateRoles("org", "member", { roles: "admin" });
  // @ts-expect-error the token, when given, is a string (the verified invitee may leave it out)
  client.invitations.accept("invitation", { token: 42 });
  // @ts-expect-error a password reset needs the new password
  client.password.reset({ token: "t" });
  // @ts-expect-error revoking a session takes its id
  client.sessions.revoke();
  // @ts-expect-error the action is chosen by the method
  client.invitations.accept("invitation", { token: "t", action: "reject" });
  void (async () => {
    const { data, error } = await client.me();
    // @ts-expect-error data may be null until error is ruled out
    data.user;
    if (error) {
      // @ts-expect-error not a code the module answers
      const code: "NO_SUCH_CODE" = error.code;
      void code;
      return;
    }
    const email: string = data.user.email;
    // @ts-expect-error activeOrganization may be null
    data.activeOrganization.organization;
    void email;
  });
}

it("the client's types follow the route schemas (checked at compile time)", () => {
  assert.equal(typeof misuses, "function");
  assert.equal(typeof createAuthClient({ baseUrl: "/api/auth" }).organizations.list, "function");
});
