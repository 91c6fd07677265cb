// The scrypt password hasher: encoding, verification, upgrades, the dummy hash, the concurrency
// cap, and one hash at the default (OWASP) cost.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  OWASP_SCRYPT_PARAMS,
  PasswordHasherBusyError,
  type ScryptDerive,
  scryptDerive,
  type ScryptParams,
  scryptPasswordHasher,
} from "../../src/auth/mod.ts";

const cheap = { params: { ln: 4 } };

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("scryptDerive()", () => {
  it("computes the RFC 7914 test vector on this runtime", async () => {
    const key = await scryptDerive("password", new TextEncoder().encode("NaCl"), {
      ln: 10,
      r: 8,
      p: 16,
    }, 64);
    assert.equal(
      hex(key),
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
    );
  });
});

describe("scryptPasswordHasher()", () => {
  it("hashes into a self-describing string that verifies only the same password", async () => {
    const hasher = scryptPasswordHasher(cheap);
    const stored = await hasher.hash("correct horse battery");
    assert.match(stored, /^\$scrypt\$ln=4,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.equal(await hasher.verify("correct horse battery", stored), true);
    assert.equal(await hasher.verify("correct horse batterY", stored), false);
    assert.notEqual(await hasher.hash("correct horse battery"), stored, "a fresh salt each time");
  });

  it("verifies with the parameters stored in the hash and flags other parameters for rehash", async () => {
    const old = await scryptPasswordHasher(cheap).hash("password one");
    const current = scryptPasswordHasher({ params: { ln: 5, r: 4 } });
    assert.equal(await current.verify("password one", old), true);
    assert.equal(current.needsRehash(old), true);
    assert.equal(current.needsRehash(await current.hash("password one")), false);
    assert.equal(scryptPasswordHasher().needsRehash(old), true, "below the default cost");
  });

  it("treats a malformed or foreign hash as a mismatch that needs a rehash", async () => {
    const hasher = scryptPasswordHasher(cheap);
    for (
      const bad of [
        "",
        "plaintext",
        "$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234",
        "$scrypt$ln=4,r=8,p=1$$",
        "$scrypt$ln=40,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
        "$scrypt$ln=4,r=8,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
      ]
    ) {
      assert.equal(await hasher.verify("anything", bad), false, bad);
      assert.equal(hasher.needsRehash(bad), true, bad);
    }
  });

  it("normalizes passwords to NFC, so composed and decomposed accents match", async () => {
    const hasher = scryptPasswordHasher(cheap);
    const stored = await hasher.hash("caf\u00e9 au lait");
    assert.equal(await hasher.verify("cafe\u0301 au lait", stored), true);
  });

  it("makes dummy hashes at the current parameters that match no password", async () => {
    const hasher = scryptPasswordHasher(cheap);
    const dummy = hasher.dummyHash();
    assert.match(dummy, /^\$scrypt\$ln=4,r=8,p=1\$/);
    assert.equal(hasher.needsRehash(dummy), false);
    assert.equal(await hasher.verify("", dummy), false);
    assert.notEqual(hasher.dummyHash(), dummy);
  });

  it("runs at most maxConcurrent derivations at once", async () => {
    let active = 0;
    let peak = 0;
    const derive: ScryptDerive = async (password, salt, params, length) => {
      active++;
      peak = Math.max(peak, active);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await scryptDerive(password, salt, params, length);
      } finally {
        active--;
      }
    };
    const hasher = scryptPasswordHasher({ ...cheap, derive, maxConcurrent: 2 });
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hasher.hash(`pw ${i}`)));
    assert.equal(hashes.length, 6);
    assert.equal(peak, 2);
  });

  it("refuses at once, with a Retry-After estimate, beyond maxConcurrent + maxQueued", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const derive: ScryptDerive = async (password, salt, params, length) => {
      await gate;
      return await scryptDerive(password, salt, params, length);
    };
    const hasher = scryptPasswordHasher({ ...cheap, derive, maxConcurrent: 1, maxQueued: 2 });
    const admitted = [hasher.hash("one"), hasher.hash("two"), hasher.hash("three")];
    await assert.rejects(
      hasher.verify("four", hasher.dummyHash()),
      (error: unknown) => error instanceof PasswordHasherBusyError && error.retryAfterSeconds >= 1,
    );
    open();
    assert.equal((await Promise.all(admitted)).length, 3);
    assert.equal(typeof await hasher.hash("five"), "string", "free again once the queue drained");
  });

  it("serves the waiting key with the least recent use first, and lets it take a heavy user's place", async () => {
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const derive: ScryptDerive = async (password, salt, params, length) => {
      order.push(password);
      await new Promise<void>((resolve) => releases.push(resolve));
      return await scryptDerive(password, salt, params, length);
    };
    const hasher = scryptPasswordHasher({ ...cheap, derive, maxConcurrent: 1, maxQueued: 2 });
    const flood = { key: "203.0.113.1" };
    const running = hasher.hash("flood 1", flood);
    const waiting = [hasher.hash("flood 2", flood), hasher.hash("flood 3", flood)];
    const evicted = waiting[1].then(() => "hashed", (error) => error.name);
    const other = hasher.hash("other", { key: "192.0.2.1" });
    assert.equal(
      await evicted,
      "PasswordHasherBusyError",
      "the flood's latest waiter lost its place",
    );
    await new Promise((r) => setTimeout(r, 10));
    releases.shift()!();
    await running;
    while (order.length < 2) await new Promise((r) => setTimeout(r, 1));
    assert.deepEqual(order, ["flood 1", "other"]);
    releases.shift()!();
    await other;
    while (releases.length < 1) await new Promise((r) => setTimeout(r, 1));
    releases.shift()!();
    await waiting[0];
  });

  it("rejects out-of-range parameters when created", () => {
    assert.throws(() => scryptPasswordHasher({ params: { ln: 0 } }), RangeError);
    assert.throws(() => scryptPasswordHasher({ params: { r: 0 } }), RangeError);
    assert.throws(() => scryptPasswordHasher({ params: { p: 1.5 } }), RangeError);
    assert.throws(() => scryptPasswordHasher({ maxConcurrent: 0 }), RangeError);
    assert.throws(() => scryptPasswordHasher({ maxQueued: -1 }), RangeError);
  });

  it("defaults to OWASP's parameters (N = 2^17, r = 8, p = 1) and works at that cost", async () => {
    assert.deepEqual({ ...OWASP_SCRYPT_PARAMS }, { ln: 17, r: 8, p: 1 });
    const seen: ScryptParams[] = [];
    const hasher = scryptPasswordHasher({
      derive: (password, salt, params, length) => {
        seen.push(params);
        return scryptDerive(password, salt, params, length);
      },
    });
    const stored = await hasher.hash("correct horse battery");
    assert.match(stored, /^\$scrypt\$ln=17,r=8,p=1\$/);
    assert.equal(await hasher.verify("correct horse battery", stored), true);
    assert.deepEqual(seen, [OWASP_SCRYPT_PARAMS, OWASP_SCRYPT_PARAMS]);
  });
});
