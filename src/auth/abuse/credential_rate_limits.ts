/**
 * The limits around the routes that hash a password (sign-in, sign-up): per client address and
 * per account before any hashing (429 `RATE_LIMITED`), and the hasher's full queue as 503
 * `SERVICE_BUSY`. Both with `Retry-After`.
 *
 * @module
 */

import { clientAddress, type TrustProxy } from "../../core/mod.ts";
import { addressKey } from "../../core/client_address.ts";
import { authError } from "../errors.ts";
import { PasswordHasherBusyError } from "./hashing_queue.ts";
import type { ResolvedRateLimit } from "./rate_limit_options.ts";
import { accountBucket, addressBucket, type RateLimiter } from "./rate_limiter.ts";

/** One attempt of a limited action, by a client on an account. */
export interface LimitedAttempt<T> {
  /** `"sign-in"` or `"sign-up"`: the bucket prefix. */
  action: string;
  /**
   * The request (for `trustProxy`) and its socket's peer; `null` for a server-side call that
   * names no client (then only `remoteAddress`, if given, identifies it).
   */
  request: Request | null;
  remoteAddress: string | null;
  /** The normalized email the attempt is about; `null` for none (no per-account limit). */
  email: string | null;
  /**
   * Whether a successful attempt gives its account hit back (sign-in: only failures count against
   * an account, so its owner is never locked out by their own sign-ins).
   */
  countOnlyFailures: boolean;
  /** The hashing work; `clientKey` is the client's address key (`null` when unknown). */
  run: (clientKey: string | null) => Promise<T>;
}

/** Runs password-hashing attempts within the module's limits. */
export interface CredentialRateLimits {
  /** Enforces the limits, then runs the attempt; 429 or 503 (with `Retry-After`) otherwise. */
  attempt<T>(attempt: LimitedAttempt<T>): Promise<T>;
}

/** What {@link createCredentialRateLimits} needs. */
export interface CredentialRateLimitsOptions {
  limiter: RateLimiter;
  /** `null` when `rateLimit: false` (the hashing queue still answers 503 when full). */
  rateLimit: ResolvedRateLimit | null;
  trustProxy: TrustProxy;
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];
const PROXY_LIKE = /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|f[cd])/;

/**
 * Whether a request looks forwarded by a proxy on a loopback or private address while
 * `trustProxy` is off: then every client shares the proxy's address and its limits.
 */
function looksProxied(request: Request, socket: string | null): string | null {
  if (socket === null || !PROXY_LIKE.test(socket)) return null;
  return FORWARDING_HEADERS.find((name) => request.headers.has(name)) ?? null;
}

/** Builds the limits of one module instance. */
export function createCredentialRateLimits(
  options: CredentialRateLimitsOptions,
): CredentialRateLimits {
  const { limiter, rateLimit, trustProxy } = options;
  let warned = false;
  return {
    async attempt({ action, request, remoteAddress, email, countOnlyFailures, run }) {
      if (!warned && rateLimit && trustProxy === false && request !== null) {
        const header = looksProxied(request, remoteAddress);
        if (header) {
          warned = true; // once per module instance: a hint for the operator, not a log flood
          console.warn(
            `[auth] requests from ${remoteAddress} carry a ${header} header but trustProxy is off: ` +
              `behind a proxy every client shares its address and its rate limits; set ` +
              `trustProxy: "${header}" if your proxy overwrites that header.`,
          );
        }
      }
      const address = request === null
        ? remoteAddress
        : clientAddress(request, remoteAddress, trustProxy);
      const clientKey = address === null ? null : addressKey(address);
      // Address first: a client over its own limit does not get to spend an account's attempts.
      if (rateLimit && clientKey !== null) {
        await limiter.enforce(
          addressBucket(action, clientKey),
          rateLimit.perAddress,
          `${action} attempts from this address`,
        );
      }
      const perAccount = rateLimit?.perAccount ?? null;
      const bucket = email === null ? null : accountBucket(action, email);
      const counted = perAccount && bucket !== null
        ? await limiter.enforce(bucket, perAccount, `${action} attempts on this account`)
        : null;
      try {
        const result = await run(clientKey);
        if (counted && bucket !== null && countOnlyFailures) await limiter.refund(bucket, counted);
        return result;
      } catch (error) {
        if (!(error instanceof PasswordHasherBusyError)) throw error;
        // The password was never checked: the account keeps its attempt.
        if (counted && bucket !== null) await limiter.refund(bucket, counted);
        throw authError("SERVICE_BUSY", error.message, {
          "retry-after": String(error.retryAfterSeconds),
        });
      }
    },
  };
}
