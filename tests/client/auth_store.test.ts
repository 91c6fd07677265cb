// createAuthStore against the auth module served over real HTTP (PGlite): `me` loaded when first
// watched, with its loading and error states; refreshed after the calls that change it (sign-up,
// create and switch organization, accept an invitation, role changes, sign-out); and two "tabs"
// (two stores over one cookie jar, as two tabs share a browser's cookies) kept in step through
// BroadcastChannel.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAuthClient } from "../../src/client/mod.ts";
import { type AuthStore, createAuthStore, type StoreAtom } from "../../src/client/store/mod.ts";
import { DIRECT_ADD } from "../auth/helpers/organizations.ts";
import { type Mailbox, withMailbox } from "../auth/helpers/verification.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import { closedPort } from "../helpers/local_server.ts";
import { type CookieJar, cookieJar } from "./cookie_jar.ts";

const PASSWORD = "correct horse battery";
const mailbox: Mailbox = new Map();
let target: AuthTarget;
let emails = 0;
const stores: AuthStore[] = [];

const email = (tag: string) => `store-${tag}-${++emails}@example.com`;
/** A channel no other test shares (Bun runs every file in one process). */
const channel = () => `auth-store-test-${crypto.randomUUID()}`;

/** A store over `jar` (a browser's cookies), closed after the file. */
function storeOf(jar: CookieJar, name: string | false = false): AuthStore {
  const store = createAuthStore(createAuthClient({ baseUrl: target.url, fetch: jar.fetch }), {
    channel: name,
  });
  stores.push(store);
  return store;
}

/** Resolves with the atom's value once `ok` holds for it (fails after 10 s with the last one). */
function until<T>(store: StoreAtom<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    let unsubscribe = () => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`${what}: still ${JSON.stringify(store.get())}`));
    }, 10_000);
    unsubscribe = store.subscribe((value) => {
      if (!ok(value)) return;
      clearTimeout(timer);
      queueMicrotask(() => unsubscribe());
      resolve(value);
    });
  });
}

before(async () => {
  target = await serveAuth(withMailbox({ organizations: DIRECT_ADD }, mailbox));
});
after(async () => {
  for (const store of stores) store.close();
  await target.close();
  await closeSharedDatabase();
});

describe("createAuthStore()", () => {
  it("loads me when first watched: loading, then signed out (a 401 is no error)", async () => {
    const jar = cookieJar();
    let calls = 0;
    const store = createAuthStore(
      createAuthClient({
        baseUrl: target.url,
        fetch: (url, init) => (calls++, jar.fetch(url, init)),
      }),
      { channel: false },
    );
    assert.equal(calls, 0, "nothing is read before it is watched");
    const seen: boolean[] = [];
    const unsubscribe = store.me.subscribe((state) => seen.push(state.loading));
    const state = await until(store.me, (s) => !s.loading, "signed out");
    unsubscribe();
    assert.deepEqual(state, { data: null, error: null, loading: false });
    assert.deepEqual(seen, [true, false]);
    assert.equal(calls, 1);
    // Watched again: loaded once, not read again.
    await until(store.user, (user) => user === null, "still signed out");
    assert.equal(calls, 1);
    store.close();
  });

  it("holds the error of a failed read", async () => {
    const store = createAuthStore(
      createAuthClient({ baseUrl: `http://127.0.0.1:${await closedPort()}/api/auth` }),
      { channel: false },
    );
    await store.refresh();
    const state = store.me.get();
    assert.equal(state.loading, false);
    assert.equal(state.data, null);
    assert.equal(state.error?.code, "NETWORK_ERROR");
    store.close();
  });

  it("follows sign-up, organizations, switching, roles, invitations and sign-out", async () => {
    const ada = storeOf(cookieJar());
    const address = email("ada");
    const signedUp = await ada.client.signUp({ email: address, password: PASSWORD });
    assert.equal(signedUp.error, null);
    // Refreshed before the call resolved.
    assert.equal(ada.user.get()?.email, address);
    assert.deepEqual(ada.organizations.get(), []);

    const acme = await ada.client.organizations.create({ name: "Acme", slug: `acme-${emails}` });
    const globex = await ada.client.organizations.create({ name: "Globex", slug: `gx-${emails}` });
    assert.ok(acme.data && globex.data);
    assert.deepEqual(
      ada.organizations.get().map((entry) => entry.organization.name),
      ["Acme", "Globex"],
    );
    await ada.client.organizations.setActive(globex.data.organization.id);
    assert.equal(ada.activeOrganization.get()?.organization.id, globex.data.organization.id);

    // Bob, verified, is invited to Acme and accepts: his invitations, then his organizations.
    const bob = storeOf(cookieJar());
    const bobAddress = email("bob");
    const bobUp = await bob.client.signUp({ email: bobAddress, password: PASSWORD });
    assert.ok(bobUp.data);
    const mail = mailbox.get(bobUp.data.user.id)?.at(-1);
    assert.ok(mail);
    await bob.client.verifyEmail({ token: mail.token });
    const invited = await ada.client.invitations.create(acme.data.organization.id, {
      email: bobAddress,
    });
    assert.ok(invited.data, JSON.stringify(invited.error));
    await bob.refresh();
    assert.deepEqual(bob.invitations.get().map((i) => i.invitation.id), [
      invited.data.invitation.id,
    ]);
    await bob.client.invitations.accept(invited.data.invitation.id, {
      token: invited.data.invitation.token,
    });
    assert.deepEqual(bob.invitations.get(), []);
    const membership = bob.organizations.get()[0];
    assert.equal(membership?.organization.id, acme.data.organization.id);
    assert.deepEqual(membership.member.roles, ["member"]);

    // Ada makes Bob an admin; Bob's store, told nothing, learns it on its next read.
    await ada.client.members.updateRoles(acme.data.organization.id, membership.member.id, {
      roles: ["admin"],
    });
    await bob.refresh();
    assert.deepEqual(bob.organizations.get()[0].member.roles, ["admin"]);
    // Bob leaves: gone from his list at once.
    await bob.client.members.remove(acme.data.organization.id, membership.member.id);
    assert.deepEqual(bob.organizations.get(), []);

    await ada.client.signOut();
    assert.equal(ada.user.get(), null);
    assert.deepEqual(ada.me.get(), { data: null, error: null, loading: false });
  });

  it("does not read me again after a read, nor after a failed change", async () => {
    let meCalls = 0;
    const jar = cookieJar();
    const store = createAuthStore(
      createAuthClient({
        baseUrl: target.url,
        fetch: (url, init) => (url.endsWith("/me") && meCalls++, jar.fetch(url, init)),
      }),
      { channel: false },
    );
    stores.push(store);
    await store.client.signUp({ email: email("reads"), password: PASSWORD });
    assert.equal(meCalls, 1);
    await store.client.organizations.list();
    await store.client.session();
    await store.client.organizations.getActive();
    assert.equal(meCalls, 1);
    const taken = await store.client.organizations.create({ name: "Dup", slug: `dup-${emails}` });
    assert.ok(taken.data);
    assert.equal(meCalls, 2);
    const again = await store.client.organizations.create({ name: "Dup", slug: `dup-${emails}` });
    assert.equal(again.error?.status, 409);
    assert.equal(meCalls, 2, "a refused change changed nothing");
  });

  it("keeps two tabs in step: an organization switch and a sign-out reach the other", async () => {
    const jar = cookieJar();
    const name = channel();
    const first = storeOf(jar, name);
    const second = storeOf(jar, name);
    // A store on another channel (another deployment) hears nothing.
    const elsewhere = storeOf(jar, channel());
    await first.client.signUp({ email: email("tabs"), password: PASSWORD });
    await until(second.user, (user) => user !== null, "the second tab sees the sign-up");
    await elsewhere.refresh();

    const one = await first.client.organizations.create({ name: "One", slug: `one-${emails}` });
    const two = await first.client.organizations.create({ name: "Two", slug: `two-${emails}` });
    assert.ok(one.data && two.data);
    await first.client.organizations.setActive(two.data.organization.id);
    await until(
      second.activeOrganization,
      (entry) => entry?.organization.id === two.data!.organization.id,
      "the second tab follows the switch",
    );
    await first.client.organizations.setActive(one.data.organization.id);
    await until(
      second.activeOrganization,
      (entry) => entry?.organization.id === one.data!.organization.id,
      "and the next one",
    );
    assert.deepEqual(second.organizations.get().map((e) => e.organization.name), ["One", "Two"]);

    await first.client.signOut();
    await until(second.user, (user) => user === null, "the second tab follows the sign-out");
    assert.equal(second.me.get().error, null);
    // The other channel's store kept what it read: no message reached it.
    assert.notEqual(elsewhere.user.get(), null);
  });
});
