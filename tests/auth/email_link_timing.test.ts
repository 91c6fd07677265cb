// Enumeration by timing, on PGlite and PostgreSQL: `POST /sign-in/email-link` takes as long for an
// address with an account as for one without. The mailer is made slow (100 ms) so that any of its
// work on the answer's path (storing the token, mailing) would show as a gap of about that much:
// the medians of interleaved known and unknown requests must stay within 40 ms of each other.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import type { AuthModule, SignInEmail } from "../../src/auth/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, send, waitForMail } from "./helpers/account.ts";

/** How long the test's mailer takes: the gap a mail on the answer's path would add. */
const MAILER_MS = 100;
/** The largest gap between the medians that counts as the same timing. */
const BOUND_MS = 40;
/** Measured requests of each kind (after a warm-up). */
const ROUNDS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

forEachAdapter((name, getAdapter) => {
  let module: AuthModule;
  const mails: SignInEmail[] = [];

  before(async () => {
    ({ module } = await accountModule(getAdapter(), {
      namespace: "email_link_timing",
      // Counted like production, never refused: the limits do the same work on both paths.
      rateLimit: { max: 1_000_000, perAccount: { max: 1_000_000 } },
      sendSignInEmail: async (mail) => {
        await sleep(MAILER_MS);
        mails.push(mail);
      },
    }));
  });

  describe(`${name}: POST /sign-in/email-link timing`, () => {
    it(`answers a known and an unknown address in the same time (medians of ${ROUNDS} each within ${BOUND_MS} ms)`, async () => {
      const known = await signUp(module, uniqueEmail("timed"));
      const times = { known: [] as number[], unknown: [] as number[] };
      const bodies = new Set<string>();
      /** One request; after a known one, waits for its mail so no background work overlaps the next. */
      const measure = async (kind: "known" | "unknown", record: boolean) => {
        const email = kind === "known" ? known.user.email : uniqueEmail("absent");
        const before = mails.length;
        const started = performance.now();
        const result = await send(module, "POST", "/sign-in/email-link", { body: { email } });
        const elapsed = performance.now() - started;
        assert.equal(result.status, 202, JSON.stringify(result.body));
        bodies.add(JSON.stringify(result.body));
        if (kind === "known") await waitForMail(mails, before + 1);
        else await sleep(MAILER_MS + 10); // the same pause: a mail, had one been sent, is done
        if (record) times[kind].push(elapsed);
      };
      for (let i = 0; i < 3; i++) {
        await measure("known", false);
        await measure("unknown", false);
      }
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which goes first, so a drift of the machine's speed touches both alike.
        const order: ("known" | "unknown")[] = round % 2 ? ["known", "unknown"] : [
          "unknown",
          "known",
        ];
        for (const kind of order) await measure(kind, true);
      }
      assert.equal(bodies.size, 1, "one answer for every address");
      const gap = Math.abs(median(times.known) - median(times.unknown));
      const summary = `known ${median(times.known).toFixed(1)} ms, unknown ${
        median(times.unknown).toFixed(1)
      } ms`;
      console.log(`[timing] ${name}: ${summary}`);
      assert.ok(gap < BOUND_MS, `medians differ by ${gap.toFixed(1)} ms: ${summary}`);
      assert.equal(mails.length, 3 + ROUNDS, "a mail for each known request, none for the others");
    });
  });
});
