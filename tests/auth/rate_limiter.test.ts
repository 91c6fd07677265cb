// The rate limiter on both databases: fixed windows counted by one atomic upsert, shared by every
// limiter on the same table (= every process), refunds, purging of expired windows, 429.
import { before, it } from "node:test";
import assert from "node:assert/strict";
import { authSchema } from "../../src/auth/mod.ts";
import {
  accountBucket,
  addressBucket,
  createRateLimiter,
} from "../../src/auth/abuse/rate_limiter.ts";
import { authTableNames } from "../../src/auth/tables.ts";
import { HttpError } from "../../src/core/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const tables = authTableNames("auth");
const rule = { window: 900, max: 3 };

forEachAdapter((name, getAdapter) => {
  before(() => migrate(getAdapter(), authSchema));

  it(`${name}: counts hits in a window and refuses past max with the seconds left`, async () => {
    const limiter = createRateLimiter({ db: getAdapter(), tables });
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.check("t:count", rule));
    assert.deepEqual(decisions.map((d) => [d.hits, d.allowed]), [
      [1, true],
      [2, true],
      [3, true],
      [4, false],
      [5, false],
    ]);
    const last = decisions[4];
    assert.ok(
      last.retryAfterSeconds >= 899 && last.retryAfterSeconds <= 900,
      `${last.retryAfterSeconds}`,
    );
    assert.equal(last.windowStartedAt.getTime(), decisions[0].windowStartedAt.getTime());
  });

  it(`${name}: an expired window starts again at 1`, async () => {
    const db = getAdapter();
    const limiter = createRateLimiter({ db, tables });
    for (let i = 0; i < 4; i++) await limiter.check("t:expire", rule);
    await db.query(
      `UPDATE ${tables.rateLimits} SET window_started_at = now() - interval '901 seconds'
        WHERE bucket = 't:expire'`,
    );
    const fresh = await limiter.check("t:expire", rule);
    assert.deepEqual([fresh.hits, fresh.allowed], [1, true]);
  });

  it(`${name}: two limiters on one database (two processes) share every count`, async () => {
    const db = getAdapter();
    const [a, b] = [createRateLimiter({ db, tables }), createRateLimiter({ db, tables })];
    const hits = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => (i % 2 ? a : b).check("t:shared", { window: 60, max: 10 }),
      ),
    );
    assert.deepEqual(
      hits.map((d) => d.hits).sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(hits.filter((d) => d.allowed).length, 10);
  });

  it(`${name}: refund gives one hit back in the same window only`, async () => {
    const db = getAdapter();
    const limiter = createRateLimiter({ db, tables });
    const first = await limiter.check("t:refund", rule);
    await limiter.check("t:refund", rule);
    await limiter.refund("t:refund", first);
    assert.equal((await limiter.check("t:refund", rule)).hits, 2);
    await db.query(
      `UPDATE ${tables.rateLimits} SET window_started_at = now() - interval '1 hour'
        WHERE bucket = 't:refund'`,
    );
    await limiter.refund("t:refund", first); // a window that is over: nothing changes
    const [row] = await db.query<{ hits: number }>(
      `SELECT hits FROM ${tables.rateLimits} WHERE bucket = 't:refund'`,
    );
    assert.equal(row.hits, 2);
  });

  it(`${name}: enforce throws 429 RATE_LIMITED with Retry-After`, async () => {
    const limiter = createRateLimiter({ db: getAdapter(), tables });
    await limiter.enforce("t:enforce", { window: 60, max: 1 });
    await assert.rejects(
      limiter.enforce("t:enforce", { window: 60, max: 1 }, "tries"),
      (error: unknown) =>
        error instanceof HttpError && error.status === 429 && error.code === "RATE_LIMITED" &&
        Number(error.headers["retry-after"]) >= 1 && error.message.includes("tries"),
    );
  });

  it(`${name}: expired windows are purged, current ones kept`, async () => {
    const db = getAdapter();
    const limiter = createRateLimiter({ db, tables, purgeEveryMs: 0 });
    await limiter.check("t:old", { window: 60, max: 5 });
    await db.query(
      `UPDATE ${tables.rateLimits} SET window_started_at = now() - interval '2 minutes'
        WHERE bucket = 't:old'`,
    );
    await limiter.check("t:current", { window: 60, max: 5 });
    const buckets = (await db.query<{ bucket: string }>(`SELECT bucket FROM ${tables.rateLimits}`))
      .map((r) => r.bucket);
    assert.ok(!buckets.includes("t:old"));
    assert.ok(buckets.includes("t:current"));
  });
});

it("buckets: per address as given, per account as a digest of the normalized email", () => {
  assert.equal(addressBucket("sign-in", "2001:db8::/64"), "sign-in:ip:2001:db8::/64");
  const bucket = accountBucket("sign-in", "ada@example.com");
  assert.match(bucket, /^sign-in:account:[0-9a-f]{32}$/);
  assert.ok(!bucket.includes("ada"));
});
