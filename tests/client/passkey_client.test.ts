// deno-lint-ignore-file no-explicit-any
// The typed client's passkey calls against the auth module served over real HTTP (PGlite), in a
// browser's way (a cookie-keeping fetch), with WebAuthn responses from the software
// authenticator: client.passkeys.registrationOptions/add/list/rename/remove and
// client.signIn.passkeyOptions/passkey, every answer parsed with its route's schema; then the
// browser conveniences passkeys.register() and signIn.withPasskey() over a stand-in
// navigator.credentials, on both paths (the browser's JSON helpers, and the client's own base64url
// conversion), and their refusals (a canceled ceremony, no WebAuthn at all).
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { after, afterEach, before, describe, it } from "node:test";
import type { z } from "zod";
import type { Equals } from "../../src/auth/http/exact_schema.ts";
import { credentialResponse } from "../../src/auth/account/responses.ts";
import {
  type addPasskeyBody,
  creationOptionsResponse,
  passkeyResponse,
  type passkeySignInBody,
  passkeysResponse,
  type renamePasskeyBody,
  requestOptionsResponse,
} from "../../src/auth/passkeys/passkey_inputs.ts";
import { type AuthClient, type AuthResult, createAuthClient } from "../../src/client/mod.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import {
  authenticate,
  register,
  type SoftwarePasskey,
} from "../auth/helpers/software_authenticator.ts";
import { cookieJar } from "./cookie_jar.ts";
import { expectData, expectError } from "./helpers.ts";

function assertType<T extends true>(_proof: T): void {}
type Argument<F, N extends number = 0> = F extends (...args: infer A) => unknown ? A[N] : never;
type Result<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;
type Passkeys = AuthClient["passkeys"];
assertType<Equals<Argument<Passkeys["add"]>, z.input<typeof addPasskeyBody>>>(true);
assertType<Equals<Argument<Passkeys["rename"], 1>, z.input<typeof renamePasskeyBody>>>(true);
assertType<Equals<Result<Passkeys["add"]>, z.output<typeof passkeyResponse>>>(true);
assertType<Equals<Result<Passkeys["register"]>, z.output<typeof passkeyResponse>>>(true);
assertType<Equals<Result<Passkeys["list"]>, z.output<typeof passkeysResponse>>>(true);
assertType<
  Equals<Result<Passkeys["registrationOptions"]>, z.output<typeof creationOptionsResponse>>
>(true);
assertType<Equals<Argument<AuthClient["signIn"]["passkey"]>, z.input<typeof passkeySignInBody>>>(
  true,
);
assertType<Equals<Result<AuthClient["signIn"]["passkey"]>, z.output<typeof credentialResponse>>>(
  true,
);
assertType<
  Equals<Result<AuthClient["signIn"]["withPasskey"]>, z.output<typeof credentialResponse>>
>(true);
assertType<
  Equals<Result<AuthClient["signIn"]["passkeyOptions"]>, z.output<typeof requestOptionsResponse>>
>(true);

const ORIGIN = "http://app.localhost";
let target: AuthTarget;
let users = 0;

before(async () => {
  target = await serveAuth({ publicOrigin: ORIGIN });
});
after(async () => {
  await target.close();
  await closeSharedDatabase();
});

/** A signed-up user's browser: a client keeping its cookies. */
async function browser(): Promise<AuthClient> {
  const client = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
  expectData(
    await client.signUp({
      email: `passkey-client-${++users}@example.com`,
      password: "correct horse battery",
    }),
    credentialResponse,
  );
  return client;
}

describe("typed auth client: passkey calls", () => {
  it("registrationOptions, add, list, rename, signIn.passkeyOptions, signIn.passkey, remove", async () => {
    const laptop = await browser();
    const options = expectData(
      await laptop.passkeys.registrationOptions(),
      creationOptionsResponse,
    );
    assert.equal(options.rp.id, "app.localhost");
    const { response, passkey } = await register(options, { origin: ORIGIN });
    const added = expectData(
      await laptop.passkeys.add({ response, name: "Laptop" }),
      passkeyResponse,
    );
    assert.equal(added.name, "Laptop");
    assert.deepEqual(expectData(await laptop.passkeys.list(), passkeysResponse), {
      passkeys: [added],
    });
    const renamed = expectData(
      await laptop.passkeys.rename(added.id, { name: "Old laptop" }),
      passkeyResponse,
    );
    assert.equal(renamed.name, "Old laptop");
    expectError(await laptop.passkeys.rename(crypto.randomUUID(), { name: "x" }), 404, "NOT_FOUND");

    const phone = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const requested = expectData(await phone.signIn.passkeyOptions(), requestOptionsResponse);
    const assertion = await authenticate(passkey, requested, { origin: ORIGIN });
    const signedIn = expectData(
      await phone.signIn.passkey({ response: assertion }),
      credentialResponse,
    );
    const me = await phone.me();
    assert.equal(me.data?.user.id, signedIn.user.id, "the cookie carries the session");
    expectError(
      await phone.signIn.passkey({ response: assertion }),
      400,
      "INVALID_PASSKEY_CHALLENGE",
    );

    assert.deepEqual(await phone.passkeys.remove(added.id), { data: null, error: null });
    assert.deepEqual(expectData(await laptop.passkeys.list(), passkeysResponse), { passkeys: [] });
  });
});

/** What the stand-in browser saw and holds. */
interface StandIn {
  /** The `publicKey` options each ceremony received. */
  seen: any[];
  /** The passkeys it created. */
  passkeys: SoftwarePasskey[];
}

const navigatorObject = (globalThis as any).navigator ?? ((globalThis as any).navigator = {});

/** Removes the stand-in WebAuthn globals. */
function uninstall(): void {
  delete navigatorObject.credentials;
  delete (globalThis as any).PublicKeyCredential;
}

function text(value: Uint8Array | string): string {
  return typeof value === "string" ? value : Buffer.from(value).toString("base64url");
}

/**
 * Installs a stand-in `navigator.credentials` over the software authenticator. With `json`, the
 * browser has `parse…FromJSON`; without, it lacks WebAuthn's JSON methods (PASSKEY_NOT_SUPPORTED).
 */
function install(json: boolean): StandIn {
  const standIn: StandIn = { seen: [], passkeys: [] };
  Object.defineProperty(navigatorObject, "credentials", {
    configurable: true,
    value: {
      async create({ publicKey }: any) {
        standIn.seen.push(publicKey);
        const options = {
          challenge: text(publicKey.challenge),
          rp: publicKey.rp,
          user: { ...publicKey.user, id: text(publicKey.user.id) },
        };
        const { response, passkey } = await register(options, { origin: ORIGIN });
        standIn.passkeys.push(passkey);
        return { toJSON: () => response };
      },
      async get({ publicKey, mediation }: any) {
        standIn.seen.push({ ...publicKey, mediation });
        const options = { challenge: text(publicKey.challenge), rpId: publicKey.rpId };
        const response = await authenticate(standIn.passkeys[0], options, { origin: ORIGIN });
        return { toJSON: () => response };
      },
    },
  });
  (globalThis as any).PublicKeyCredential = json
    ? {
      parseCreationOptionsFromJSON: (options: any) => ({ ...options, parsed: true }),
      parseRequestOptionsFromJSON: (options: any) => ({ ...options, parsed: true }),
    }
    : {};
  return standIn;
}

/** Both ceremonies answer PASSKEY_NOT_SUPPORTED without sending a request. */
async function refusedBeforeAnyRequest(): Promise<void> {
  const urls: string[] = [];
  const client = createAuthClient({
    baseUrl: target.url,
    fetch: (url, init) => {
      urls.push(url);
      return fetch(url, init);
    },
  });
  expectError(await client.passkeys.register(), 0, "PASSKEY_NOT_SUPPORTED");
  expectError(await client.signIn.withPasskey(), 0, "PASSKEY_NOT_SUPPORTED");
  assert.deepEqual(urls, []);
}

describe("typed auth client: passkeys.register() and signIn.withPasskey()", () => {
  afterEach(uninstall);

  it("run both ceremonies with the browser's JSON helpers", async () => {
    const standIn = install(true);
    const laptop = await browser();
    const added = expectData(
      await laptop.passkeys.register({ name: "This laptop" }),
      passkeyResponse,
    );
    assert.equal(added.name, "This laptop");
    const [creation] = standIn.seen;
    assert.equal(creation.parsed, true, "parseCreationOptionsFromJSON was used");

    const elsewhere = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const signedIn = expectData(
      await elsewhere.signIn.withPasskey({ mediation: "optional" }),
      credentialResponse,
    );
    assert.equal(standIn.seen[1].mediation, "optional");
    assert.equal(standIn.seen[1].parsed, true, "parseRequestOptionsFromJSON was used");
    const me = await elsewhere.me();
    assert.equal(me.data?.user.id, signedIn.user.id);

    // A second passkey: the first one is excluded, in the browser's form.
    await laptop.passkeys.register();
    const excluded = standIn.seen[2].excludeCredentials;
    assert.equal(excluded.length, 1);
  });

  it("a browser without WebAuthn's JSON methods: PASSKEY_NOT_SUPPORTED, and no request is sent", async () => {
    install(false);
    await refusedBeforeAnyRequest();
  });

  it("a canceled ceremony is PASSKEY_CEREMONY_FAILED with the DOMException's name; nothing added", async () => {
    install(true);
    navigatorObject.credentials.create = () =>
      Promise.reject(
        new DOMException("The operation either timed out or was not allowed.", "NotAllowedError"),
      );
    navigatorObject.credentials.get = navigatorObject.credentials.create;
    const laptop = await browser();
    const refused = expectError(await laptop.passkeys.register(), 0, "PASSKEY_CEREMONY_FAILED");
    assert.match(refused.message, /^NotAllowedError: /);
    assert.deepEqual(expectData(await laptop.passkeys.list(), passkeysResponse), { passkeys: [] });
    expectError(await laptop.signIn.withPasskey(), 0, "PASSKEY_CEREMONY_FAILED");
  });

  it("without WebAuthn: PASSKEY_NOT_SUPPORTED, and no request is sent", async () => {
    uninstall();
    await refusedBeforeAnyRequest();
  });
});
