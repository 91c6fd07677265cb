// deno-lint-ignore-file no-explicit-any
// Changing the address and deleting the account over HTTP on PGlite and PostgreSQL: the
// confirmation mailed to the new address, 409 EMAIL_TAKEN at request and at confirmation, the
// pending invitations that follow the verified address, GET /me after the change, the
// deletion's SOLE_OWNER rule, sole-member organizations soft-deleted, memberships, sessions and
// invitations gone, the address free again; events; abuse (reuse, forged, expired, another
// user's token, CSRF, flood, wrong password).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { assertError, call, signUp, uniqueEmail } from "./helpers/http.ts";
import {
  accountModule,
  expireAccountTokens,
  type Outbox,
  send,
  waitForMail,
} from "./helpers/account.ts";
import {
  addMember,
  createOrganization,
  DIRECT_ADD,
  invite,
  newUser,
} from "./helpers/organizations.ts";

const PASSWORD = "correct horse battery";

forEachAdapter((name, getAdapter) => {
  let db: SqlAdapter;
  let module: AuthModule;
  let outbox: Outbox;

  before(async () => {
    db = getAdapter();
    ({ module, outbox } = await accountModule(db, { organizations: DIRECT_ADD }));
  });

  /** Asks to move `token`'s user to `newEmail`; the token of the confirmation mail. */
  async function requestChange(token: string, newEmail: string): Promise<string> {
    const before = outbox.changes.length;
    const result = await send(module, "POST", "/email/change", {
      token,
      body: { newEmail, password: PASSWORD },
    });
    assert.equal(result.status, 202, JSON.stringify(result.body));
    assert.equal(outbox.changes.length, before + 1);
    return outbox.changes.at(-1)!.token;
  }

  describe(`${name}: POST /email/change and /email/change/confirm`, () => {
    it("mails the new address; the confirmation switches it (verified), /me follows, emailChanged recorded", async () => {
      const signed = await signUp(module, uniqueEmail("old"));
      const newEmail = uniqueEmail("new");
      const token = await requestChange(signed.token, newEmail.toUpperCase());
      const mail = outbox.changes.at(-1)!;
      assert.equal(mail.email, newEmail);
      assert.equal(mail.user.email, signed.user.email);
      assert.equal(mail.url, `https://app.example.com/#confirm-email?token=${token}`);
      assert.equal(
        (await call(module, "GET", "/me", { token: signed.token })).body.user.email,
        signed.user.email,
        "nothing changes before the confirmation",
      );
      const confirmed = await send(module, "POST", "/email/change/confirm", { body: { token } });
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      assert.deepEqual(confirmed.body.user, {
        ...signed.user,
        email: newEmail,
        emailVerified: true,
      });
      const me = await call(module, "GET", "/me", { token: signed.token });
      assert.equal(me.body.user.email, newEmail);
      assert.equal(
        (await call(module, "POST", "/sign-in", { body: { email: newEmail, password: PASSWORD } }))
          .status,
        200,
      );
      assertError(
        await call(module, "POST", "/sign-in", {
          body: { email: signed.user.email, password: PASSWORD },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
      await module.api.hooks!.drain();
      const event = outbox.events.find((e) =>
        e.name === "emailChanged" && e.payload.user.id === signed.user.id
      );
      assert.ok(event);
      assert.equal(event.payload.previousEmail, signed.user.email);
    });

    it("pending invitations follow the verified address, and those to the new address appear", async () => {
      const owner = await newUser(module, "owner");
      const first = await createOrganization(module, owner);
      const second = await createOrganization(module, owner);
      const invitee = await newUser(module, "invitee");
      await invite(module, owner, first.id, invitee.user.email);
      const newEmail = uniqueEmail("moved");
      await invite(module, owner, second.id, newEmail);
      // /me read (and kept) before the change.
      const before = await call(module, "GET", "/me", { token: invitee.token });
      assert.equal(before.body.invitations.length, 1);
      const token = await requestChange(invitee.token, newEmail);
      assert.equal(
        (await send(module, "POST", "/email/change/confirm", { body: { token } })).status,
        200,
      );
      const after = await call(module, "GET", "/me", { token: invitee.token });
      assert.deepEqual(
        after.body.invitations.map((i: any) => i.organization.id).sort(),
        [first.id, second.id].sort(),
      );
    });

    it("409 EMAIL_TAKEN at request, and at confirmation when the address was taken meanwhile", async () => {
      const taken = await signUp(module, uniqueEmail("taken"));
      const signed = await signUp(module, uniqueEmail("wants"));
      assertError(
        await send(module, "POST", "/email/change", {
          token: signed.token,
          body: { newEmail: taken.user.email, password: PASSWORD },
        }),
        409,
        "EMAIL_TAKEN",
      );
      const later = uniqueEmail("later");
      const token = await requestChange(signed.token, later);
      await signUp(module, later);
      assertError(
        await send(module, "POST", "/email/change/confirm", { body: { token } }),
        409,
        "EMAIL_TAKEN",
      );
      assert.equal(
        (await call(module, "GET", "/me", { token: signed.token })).body.user.email,
        signed.user.email,
      );
    });

    it("abuse: wrong password 401, reuse, forged, voided, expired tokens refused", async () => {
      const signed = await signUp(module, uniqueEmail("abuse"));
      assertError(
        await send(module, "POST", "/email/change", {
          token: signed.token,
          body: { newEmail: uniqueEmail("x"), password: "not the password" },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
      const older = await requestChange(signed.token, uniqueEmail("older"));
      const newer = await requestChange(signed.token, uniqueEmail("newer"));
      assertError(
        await send(module, "POST", "/email/change/confirm", { body: { token: older } }),
        400,
        "INVALID_EMAIL_CHANGE_TOKEN",
      );
      for (const forged of ["C".repeat(43), "x", ""]) {
        assertError(
          await send(module, "POST", "/email/change/confirm", { body: { token: forged } }),
          400,
          "INVALID_EMAIL_CHANGE_TOKEN",
        );
      }
      assert.equal(
        (await send(module, "POST", "/email/change/confirm", { body: { token: newer } })).status,
        200,
      );
      assertError(
        await send(module, "POST", "/email/change/confirm", { body: { token: newer } }),
        400,
        "INVALID_EMAIL_CHANGE_TOKEN",
      );
      const expiring = await requestChange(signed.token, uniqueEmail("expiring"));
      await expireAccountTokens(db, signed.user.id);
      assertError(
        await send(module, "POST", "/email/change/confirm", { body: { token: expiring } }),
        410,
        "EMAIL_CHANGE_TOKEN_EXPIRED",
      );
      // A password reset token is not an email change token.
      const resetsBefore = outbox.resets.length;
      await send(module, "POST", "/password/forgot", {
        body: { email: (await module.api.me({ token: signed.token })).user.email },
      });
      assertError(
        await send(module, "POST", "/email/change/confirm", {
          body: { token: (await waitForMail(outbox.resets, resetsBefore + 1)).token },
        }),
        400,
        "INVALID_EMAIL_CHANGE_TOKEN",
      );
    });

    it("abuse: another user's token moves only that user; CSRF refused; mails to one address are limited", async () => {
      const alice = await signUp(module, uniqueEmail("alice"));
      const bob = await signUp(module, uniqueEmail("bob"));
      const bobsNew = uniqueEmail("bob-new");
      const token = await requestChange(bob.token, bobsNew);
      const confirmed = await send(module, "POST", "/email/change/confirm", {
        token: alice.token,
        body: { token },
      });
      assert.equal(confirmed.body.user.id, bob.user.id);
      assert.equal(
        (await call(module, "GET", "/me", { token: alice.token })).body.user.email,
        alice.user.email,
      );
      assertError(
        await send(module, "POST", "/email/change", {
          token: alice.token,
          transport: "cookie",
          origin: "https://evil.example",
          body: { newEmail: uniqueEmail("evil"), password: PASSWORD },
        }),
        403,
        "CSRF_REJECTED",
      );
      const again = await requestChange(alice.token, uniqueEmail("csrf-confirm"));
      assertError(
        await send(module, "POST", "/email/change/confirm", {
          origin: "https://evil.example",
          body: { token: again },
        }),
        403,
        "CSRF_REJECTED",
      );
      const { module: limited } = await accountModule(db, {
        namespace: "change_flood",
        rateLimit: { max: 100, perAccount: { max: 2 } },
      });
      const victim = uniqueEmail("victim");
      const user = await signUp(limited, uniqueEmail("bomber"));
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (await send(limited, "POST", "/email/change", {
            token: user.token,
            body: { newEmail: victim, password: PASSWORD },
          })).status,
        );
      }
      assert.deepEqual(statuses, [202, 202, 429]);
    });
  });

  describe(`${name}: POST /account/delete`, () => {
    it("deletes: sessions, memberships, invitations to the user go; sole-member organizations soft-deleted; the address is free", async () => {
      const user = await newUser(module, "leaving");
      const own = await createOrganization(module, user);
      const owner = await newUser(module, "boss");
      const shared = await createOrganization(module, owner);
      await addMember(module, owner, shared.id, user, ["member"]);
      const elsewhere = await createOrganization(module, owner);
      await invite(module, owner, elsewhere.id, user.user.email);
      const deleted = await send(module, "POST", "/account/delete", {
        token: user.token,
        body: { password: PASSWORD },
      });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.deepEqual(deleted.body, { userId: user.user.id, deletedOrganizationIds: [own.id] });
      assert.match(deleted.headers.get("set-cookie") ?? "", /service_auth=;/);
      assertError(await call(module, "GET", "/me", { token: user.token }), 401, "UNAUTHENTICATED");
      const [org] = await db.query<{ deleted: boolean }>(
        "SELECT deleted_at IS NOT NULL AS deleted FROM auth.organizations WHERE id = $1",
        [own.id],
      );
      assert.equal(org.deleted, true);
      const members = await db.query("SELECT 1 FROM auth.members WHERE user_id = $1", [
        user.user.id,
      ]);
      assert.equal(members.length, 0);
      const [invitation] = await db.query<{ status: string }>(
        "SELECT status FROM auth.invitations WHERE organization_id = $1",
        [elsewhere.id],
      );
      assert.equal(invitation.status, "canceled");
      const sharedAfter = await call(module, "GET", `/organizations/${shared.id}/members`, {
        token: owner.token,
      });
      assert.equal(sharedAfter.body.members.length, 1);
      assertError(
        await call(module, "POST", "/sign-in", {
          body: { email: user.user.email, password: PASSWORD },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
      const again = await signUp(module, user.user.email);
      assert.notEqual(again.user.id, user.user.id, "the address can sign up anew");
      await module.api.hooks!.drain();
      const event = outbox.events.find((e) =>
        e.name === "accountDeleted" && e.payload.userId === user.user.id
      );
      assert.ok(event);
      assert.deepEqual(event.payload.deletedOrganizationIds, [own.id]);
    });

    it("409 SOLE_OWNER while the only owner of an organization with other members; then after handing over, 200", async () => {
      const owner = await newUser(module, "sole");
      const organization = await createOrganization(module, owner);
      const member = await newUser(module, "member");
      const added = await addMember(module, owner, organization.id, member, ["member"]);
      const refused = await send(module, "POST", "/account/delete", {
        token: owner.token,
        body: { password: PASSWORD },
      });
      assertError(refused, 409, "SOLE_OWNER");
      assert.match(refused.body.error.message, /hand ownership over/);
      assert.equal(
        (await call(module, "GET", "/me", { token: owner.token })).status,
        200,
        "nothing deleted",
      );
      const promoted = await call(
        module,
        "PATCH",
        `/organizations/${organization.id}/members/${added.id}`,
        {
          token: owner.token,
          body: { roles: ["owner"] },
        },
      );
      assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
      const deleted = await send(module, "POST", "/account/delete", {
        token: owner.token,
        body: { password: PASSWORD },
      });
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body.deletedOrganizationIds, []);
      assert.equal(
        (await call(module, "GET", `/organizations/${organization.id}`, { token: member.token }))
          .status,
        200,
      );
    });

    it("abuse: a wrong password is 401 (counted), a cross-origin cookie request 403; nothing deleted", async () => {
      const user = await signUp(module, uniqueEmail("keep"));
      assertError(
        await send(module, "POST", "/account/delete", {
          token: user.token,
          body: { password: "wrong password" },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
      assertError(
        await send(module, "POST", "/account/delete", {
          token: user.token,
          transport: "cookie",
          origin: "https://evil.example",
          body: { password: PASSWORD },
        }),
        403,
        "CSRF_REJECTED",
      );
      assertError(
        await send(module, "POST", "/account/delete", { body: { password: PASSWORD } }),
        401,
        "UNAUTHENTICATED",
      );
      assert.equal((await call(module, "GET", "/me", { token: user.token })).status, 200);
      const [row] = await db.query<{ hits: number }>(
        "SELECT sum(hits)::int AS hits FROM auth.rate_limits WHERE bucket LIKE 'sign-in:account:%'",
      );
      assert.ok(row.hits >= 1, "the wrong password counted against the sign-in limit");
    });

    it("auth.api.deleteAccount behaves like the route", async () => {
      const user = await signUp(module, uniqueEmail("api-delete"));
      await assert.rejects(
        module.api.deleteAccount({ userId: user.user.id }, { password: "nope nope" }),
        (error: any) => error.status === 401,
      );
      const result = await module.api.deleteAccount({ userId: user.user.id }, {
        password: PASSWORD,
      });
      assert.equal(result.userId, user.user.id);
      await assert.rejects(
        module.api.me({ userId: user.user.id }),
        (error: any) => error.status === 404,
      );
    });
  });
});
