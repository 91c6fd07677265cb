/**
 * The `twoFactor` option of the auth module: what authenticator apps show for the account.
 *
 * @module
 */

/**
 * Options of the second factors (`auth({ twoFactor })`).
 *
 * @example
 * ```ts
 * import type { AuthTwoFactorOptions } from "@app/fragment-cli/auth";
 *
 * const twoFactor: AuthTwoFactorOptions = { issuer: "Acme Invoices" };
 * ```
 */
export interface AuthTwoFactorOptions {
  /**
   * The name authenticator apps list the account under, beside the user's address (the
   * `issuer` of the `otpauth://` URL). 1–64 characters, no `:`.
   * @default the host name of `publicOrigin`, else "fragment-cli"
   */
  issuer?: string;
}

/** The options after defaults. */
export interface ResolvedTwoFactorOptions {
  issuer: string;
}

/** Applies the defaults and checks the option; `fail` throws the module's configuration error. */
export function resolveTwoFactorOptions(
  options: AuthTwoFactorOptions | undefined,
  publicOrigin: string | null,
  fail: (details: string) => never,
): ResolvedTwoFactorOptions {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    fail("twoFactor: expected an object");
  }
  const issuer = options?.issuer ??
    (publicOrigin === null ? "fragment-cli" : new URL(publicOrigin).hostname);
  if (
    typeof issuer !== "string" || issuer.trim() === "" || issuer.length > 64 ||
    issuer.includes(":")
  ) {
    fail(
      `twoFactor.issuer: expected 1 to 64 characters without ":", got ${JSON.stringify(issuer)}`,
    );
  }
  return { issuer };
}
