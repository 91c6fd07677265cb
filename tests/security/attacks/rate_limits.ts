// Finding 3: credential stuffing and hashing floods, replayed over HTTP. Without rate limits an
// attacker guesses passwords as fast as the server hashes; without a bound on the hashing queue,
// a burst of junk sign-ins queues a legitimate one behind it for seconds.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  auth,
  type ScryptDerive,
  scryptDerive,
  scryptPasswordHasher,
} from "../../../src/auth/mod.ts";
import { serve } from "../../../src/core/mod.ts";
import { type AuthTarget, serveAuth } from "../harness.ts";

const PASSWORD = "correct horse battery";

async function post(
  target: AuthTarget | string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<{ status: number; headers: Headers; body: { error?: { code: string } } }> {
  const base = typeof target === "string" ? target : target.url;
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    // A queued request would wait for the gate forever: fail the attack instead of hanging.
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

function assertLimited(
  result: { status: number; headers: Headers; body: { error?: { code: string } } },
  code = "RATE_LIMITED",
  status = 429,
): void {
  assert.equal(result.status, status, JSON.stringify(result.body));
  assert.equal(result.body.error?.code, code);
  const retryAfter = Number(result.headers.get("retry-after"));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After: ${retryAfter}`);
}

describe("attack: credential stuffing (finding 3)", () => {
  let target: AuthTarget;
  before(async () => {
    target = await serveAuth();
    assert.equal(
      (await post(target, "/sign-up", { email: "victim@example.com", password: PASSWORD })).status,
      200,
    );
  });
  after(() => target.close());

  it("guessing one account's password: the 11th failure in 15 minutes is 429, even with the right password", async () => {
    for (let i = 0; i < 10; i++) {
      const guess = await post(target, "/sign-in", {
        email: "victim@example.com",
        password: `guess ${i}`,
      });
      assert.equal(guess.status, 401);
    }
    assertLimited(
      await post(target, "/sign-in", { email: "Victim@Example.com", password: "guess 10" }),
    );
    const right = await post(target, "/sign-in", {
      email: "victim@example.com",
      password: PASSWORD,
    });
    assertLimited(right);
    assert.ok(Number(right.headers.get("retry-after")) <= 900);
  });

  it("rotating a spoofed X-Forwarded-For does not escape the per-address limit (trustProxy off)", async () => {
    const limited = await serveAuth({ rateLimit: { max: 5 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const result = await post(limited, "/sign-in", {
          email: `nobody${i}@example.com`,
          password: "whatever1",
        }, { "x-forwarded-for": `198.51.100.${i}` });
        statuses.push(result.status);
        if (i === 6) assertLimited(result);
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it("behind a proxy (trustProxy), each client address has its own budget", async () => {
    const proxied = await serveAuth({ rateLimit: { max: 3 }, trustProxy: "x-forwarded-for" });
    try {
      const from = (address: string) => ({ "x-forwarded-for": `${address}, 10.0.0.1` });
      for (let i = 0; i < 3; i++) {
        const r = await post(proxied, "/sign-up", {
          email: `a${i}@example.com`,
          password: PASSWORD,
        }, from("203.0.113.5"));
        assert.equal(r.status, 200);
      }
      assertLimited(
        await post(
          proxied,
          "/sign-up",
          { email: "a3@example.com", password: PASSWORD },
          from("203.0.113.5"),
        ),
      );
      const other = await post(
        proxied,
        "/sign-up",
        { email: "b@example.com", password: PASSWORD },
        from("203.0.113.6"),
      );
      assert.equal(other.status, 200);
    } finally {
      await proxied.close();
    }
  });

  it("counters live in the database: a second process on the same database sees the same hits", async () => {
    const limited = await serveAuth({ rateLimit: { max: 100, perAccount: { max: 4 } } });
    const twin = auth({
      database: limited.db,
      namespace: limited.namespace,
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      rateLimit: { max: 100, perAccount: { max: 4 } },
    });
    const server = await serve([twin], { port: 0, hostname: "127.0.0.1", handleSignals: false });
    const twinUrl = `http://127.0.0.1:${server.port}${twin.mountRoute}`;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const result = await post(i % 2 === 0 ? limited.url : twinUrl, "/sign-in", {
          email: "shared@example.com",
          password: `guess ${i}`,
        });
        statuses.push(result.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
    } finally {
      await server.shutdown();
      await limited.close();
    }
  });
});

/**
 * A derivation held at a gate while `hold` is on: each held call waits until the test releases
 * it, so hashes stay "running" exactly as long as a test needs.
 */
function gatedDerive() {
  const held: Array<{ password: string; release: () => void }> = [];
  const control = {
    hold: true,
    /** Passwords in the order their derivation started. */
    started: [] as string[],
    async waitForStarted(count: number): Promise<void> {
      while (control.started.length < count) await new Promise((r) => setTimeout(r, 5));
    },
    /** Lets the oldest held derivation finish. */
    releaseOne(): void {
      held.shift()?.release();
    },
    releaseAll(): void {
      control.hold = false;
      while (held.length > 0) held.shift()!.release();
    },
    derive: (async (password, salt, params, length) => {
      control.started.push(password);
      if (control.hold) await new Promise<void>((release) => held.push({ password, release }));
      return await scryptDerive(password, salt, params, length);
    }) as ScryptDerive,
  };
  return control;
}

describe("attack: hashing flood (finding 3)", () => {
  it("junk sign-ins beyond the hashing queue's bound are answered 503 at once, not queued", async () => {
    const gated = gatedDerive();
    const target = await serveAuth({
      rateLimit: false, // floods on purpose
      passwordHasher: scryptPasswordHasher({
        params: { ln: 4 },
        derive: gated.derive,
        maxConcurrent: 1,
        maxQueued: 1,
      }),
    });
    try {
      const junk = (i: number, timeoutMs?: number) =>
        post(
          target,
          "/sign-in",
          { email: `junk${i}@example.com`, password: `junk ${i}` },
          {},
          timeoutMs,
        );
      const held = [junk(0)];
      await gated.waitForStarted(1); // running, held at the gate
      held.push(junk(1)); // waiting
      await new Promise((r) => setTimeout(r, 50));
      const startedAt = performance.now();
      const excess = await junk(2, 2000);
      assertLimited(excess, "SERVICE_BUSY", 503);
      assert.ok(performance.now() - startedAt < 2000, "answered without waiting for a hash");
      gated.releaseAll();
      assert.deepEqual((await Promise.all(held)).map((r) => r.status), [401, 401]);
    } finally {
      gated.releaseAll();
      await target.close();
    }
  });

  it("a sign-in from another address jumps a flooding address's queued junk", async () => {
    const gated = gatedDerive();
    gated.hold = false;
    const target = await serveAuth({
      rateLimit: false, // floods on purpose
      trustProxy: "x-forwarded-for",
      passwordHasher: scryptPasswordHasher({
        params: { ln: 4 },
        derive: gated.derive,
        maxConcurrent: 1,
        maxQueued: 2,
      }),
    });
    try {
      await target.module.api.createUser({ email: "user@example.com", password: PASSWORD });
      gated.hold = true;
      gated.started.length = 0;
      const attacker = { "x-forwarded-for": "203.0.113.1" };
      const junk = (i: number, timeoutMs?: number) =>
        post(
          target,
          "/sign-in",
          { email: `junk${i}@example.com`, password: `junk ${i}` },
          attacker,
          timeoutMs,
        );
      const flood = [junk(0)];
      await gated.waitForStarted(1);
      flood.push(junk(1), junk(2)); // the queue is now full
      await new Promise((r) => setTimeout(r, 50));
      assertLimited(await junk(3, 2000), "SERVICE_BUSY", 503);
      const legit = post(target, "/sign-in", { email: "user@example.com", password: PASSWORD }, {
        "x-forwarded-for": "192.0.2.10",
      });
      await new Promise((r) => setTimeout(r, 50));
      gated.releaseOne(); // the running junk ends: the legitimate sign-in goes next
      await Promise.race([gated.waitForStarted(2), new Promise((r) => setTimeout(r, 2000))]);
      assert.equal(gated.started[1], PASSWORD, `started in order: ${gated.started}`);
      gated.releaseAll();
      assert.equal((await legit).status, 200);
      const statuses = (await Promise.all(flood)).map((r) => r.status).sort();
      assert.deepEqual(statuses, [401, 401, 503], "the attacker's latest waiter lost its place");
    } finally {
      gated.releaseAll();
      await target.close();
    }
  });
});

describe("attack: verification guessing and mail bombing (finding 3, the verification routes)", () => {
  it("guessed verification tokens from one address are 429 after the per-address limit", async () => {
    const target = await serveAuth({ rateLimit: { max: 5 }, sendVerificationEmail: () => {} });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        statuses.push((await post(target, "/verify-email", { token: `guess-${i}` })).status);
      }
      assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429, 429]);
      assertLimited(await post(target, "/verify-email", { token: "guess-7" }));
    } finally {
      await target.close();
    }
  });

  it("one account cannot make the module mail an inbox more than perAccount.max times", async () => {
    const mails: string[] = [];
    const target = await serveAuth({
      rateLimit: { max: 100, perAccount: { window: 900, max: 3 } },
      sendVerificationEmail: ({ email }) => void mails.push(email),
    });
    try {
      const signedUp = await post(target, "/sign-up", {
        email: "inbox@example.com",
        password: PASSWORD,
      }) as unknown as { body: { token: string } };
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${target.url}/verify-email/resend`, {
          method: "POST",
          headers: { authorization: `Bearer ${signedUp.body.token}` },
        });
        await response.body?.cancel();
        statuses.push(response.status);
      }
      // Sign-up's mail counts on its own bucket; resends stop after three.
      assert.deepEqual(statuses, [204, 204, 204, 429, 429]);
      assert.equal(mails.length, 4);
    } finally {
      await target.close();
    }
  });
});
