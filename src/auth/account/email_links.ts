/**
 * The links the module mails, and where `GET /verify-email` sends the browser afterwards. Every
 * mailed link is absolute: its origin is `publicOrigin`, else the address `serve()` listens at,
 * else (a request to a loopback host: local development) the request's own origin; never a
 * `Host` a client chose on a public address, which would let anyone have a reset link to their
 * own server mailed to a victim. The `emailLinks` option points each kind elsewhere (an SPA
 * hosted apart from the API).
 *
 * @module
 */

import { ModuleConfigError } from "../../core/mod.ts";

/**
 * The `emailLinks` option: where each kind of mailed link points. A value is an absolute URL
 * (`https://app.example.com/reset`) or a path of the deployment (`/reset`); the module appends
 * `token=<token>` to its query (to its fragment's query when it has a fragment, which keeps the
 * token out of server logs and `Referer` headers).
 *
 * @example An SPA on another origin
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 *
 * auth({
 *   database: pgliteAdapter(),
 *   publicOrigin: "https://api.example.com",
 *   trustedOrigins: ["https://app.example.com"],
 *   emailLinks: {
 *     verifyEmail: "https://app.example.com/verify-email",
 *     resetPassword: "https://app.example.com/reset-password",
 *     confirmEmailChange: "https://app.example.com/confirm-email",
 *     signIn: "https://app.example.com/sign-in", // the token goes after #
 *     afterVerifyEmail: "https://app.example.com/",
 *   },
 * });
 * ```
 */
export interface EmailLinksOptions {
  /**
   * The verification link. The default, `GET <mountRoute>/verify-email`, verifies and redirects
   * to `afterVerifyEmail`; a page of yours posts the token to `POST /verify-email` instead.
   * @default "<mountRoute>/verify-email"
   */
  verifyEmail?: string;
  /**
   * The password reset link: a page that asks for the new password and posts it with the token
   * to `POST /password/reset` (opening it consumes nothing). @default "/#reset-password"
   */
  resetPassword?: string;
  /**
   * The email change confirmation link: a page that posts the token to
   * `POST /email/change/confirm`. @default "/#confirm-email"
   */
  confirmEmailChange?: string;
  /**
   * The sign-in link of `POST /sign-in/email-link`: a page of the app that posts the token to
   * `POST /sign-in/email-link/verify`. Its token is always in the fragment (`#token=…` added when
   * the value has none), which a browser never sends to a server. @default "/#sign-in-link"
   */
  signIn?: string;
  /**
   * Where `GET /verify-email` redirects (303) once done, with `emailVerified=true` or
   * `emailVerification=invalid|expired|rate-limited` added to its query. @default "/"
   */
  afterVerifyEmail?: string;
}

/** The kinds of mailed links. */
export type MailedLinkKind = "verifyEmail" | "resetPassword" | "confirmEmailChange" | "signIn";

/** The links after defaults. */
export interface ResolvedEmailLinks {
  verifyEmail: string | null;
  resetPassword: string;
  confirmEmailChange: string;
  signIn: string;
  afterVerifyEmail: string;
}

/** Validates `emailLinks`: each value an absolute http(s) URL or a path starting with `/`. */
export function resolveEmailLinks(option: EmailLinksOptions | undefined): ResolvedEmailLinks {
  if (option !== undefined && (typeof option !== "object" || option === null)) {
    throw new ModuleConfigError("auth", "emailLinks: expected an object of links");
  }
  const given = option ?? {};
  const known = [
    "verifyEmail",
    "resetPassword",
    "confirmEmailChange",
    "signIn",
    "afterVerifyEmail",
  ];
  for (const [name, value] of Object.entries(given)) {
    if (!known.includes(name)) {
      throw new ModuleConfigError(
        "auth",
        `emailLinks.${name}: unknown (links: ${known.join(", ")})`,
      );
    }
    if (value !== undefined && !isLinkBase(value)) {
      throw new ModuleConfigError(
        "auth",
        `emailLinks.${name}: expected an http(s) URL or a path starting with "/", got ${
          JSON.stringify(value)
        }`,
      );
    }
  }
  return {
    verifyEmail: given.verifyEmail ?? null,
    resetPassword: given.resetPassword ?? "/#reset-password",
    confirmEmailChange: given.confirmEmailChange ?? "/#confirm-email",
    signIn: given.signIn ?? "/#sign-in-link",
    afterVerifyEmail: given.afterVerifyEmail ?? "/",
  };
}

function isLinkBase(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 2048) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** `base` with `name=value` added to its query, or to its fragment's query when it has one. */
export function withParam(base: string, name: string, value: string): string {
  const hash = base.indexOf("#");
  const part = hash === -1 ? base : base.slice(hash);
  const separator = part.includes("?") ? "&" : "?";
  return `${base}${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Builds the links of one module instance. */
export interface EmailLinkBuilder {
  /**
   * The absolute link of `kind` carrying `token`; relative only when no origin is known (no
   * `publicOrigin`, not served by `serve()`, and no loopback request).
   */
  link(kind: MailedLinkKind, token: string, request: Request | null): string;
  /** Where `GET /verify-email` redirects, with its outcome. */
  afterVerification(outcome: string): string;
  /** Tells the builder the address `serve()` listens at (its fallback origin). */
  servedAt(url: string): void;
}

/** The link builder of one module instance. */
export function emailLinkBuilder(options: {
  links: ResolvedEmailLinks;
  publicOrigin: string | null;
  mountRoute: string;
}): EmailLinkBuilder {
  const { links, publicOrigin, mountRoute } = options;
  let served: string | null = null;
  function origin(request: Request | null): string {
    if (publicOrigin !== null) return publicOrigin;
    if (served !== null) return served;
    if (request !== null) {
      const url = new URL(request.url);
      if (LOOPBACK.test(url.hostname)) return url.origin;
    }
    return "";
  }
  return {
    link(kind, token, request) {
      const base = kind === "verifyEmail"
        ? links.verifyEmail ?? `${mountRoute}/verify-email`
        : links[kind];
      const absolute = base.startsWith("/") ? `${origin(request)}${base}` : base;
      // A sign-in link keeps its token out of every query: a mail scanner fetching the page, or
      // the page's server, never sees it.
      if (kind === "signIn" && !absolute.includes("#")) {
        return `${absolute}#token=${encodeURIComponent(token)}`;
      }
      return withParam(absolute, "token", token);
    },
    afterVerification(outcome) {
      return outcome === "verified"
        ? withParam(links.afterVerifyEmail, "emailVerified", "true")
        : withParam(links.afterVerifyEmail, "emailVerification", outcome);
    },
    servedAt(url) {
      try {
        const parsed = new URL(url);
        // A wildcard bind is reached at localhost from the machine itself.
        if (parsed.hostname === "0.0.0.0" || parsed.hostname === "[::]") {
          parsed.hostname = "localhost";
        }
        served = parsed.origin;
      } catch {
        served = null;
      }
    },
  };
}
