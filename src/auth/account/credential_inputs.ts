/**
 * The inputs of the credential operations (sign-up, sign-in, email verification) as zod
 * schemas: the routes parse their bodies with them, `authModule.api` its arguments.
 *
 * @module
 */

import { z } from "zod";
import { emailSchema, MAX_EMAIL_LENGTH, normalizeEmail } from "./email_address.ts";
import { exactSchema } from "../http/exact_schema.ts";
import { isWellFormedText } from "./well_formed.ts";

/** Shortest and longest accepted passwords, in characters (code points). */
export const PASSWORD_LENGTH = Object.freeze({ min: 8, max: 128 });

const WELL_FORMED_PASSWORD = "Must be well-formed Unicode (no unpaired surrogate code units)";

function passwordSchema(min: number): z.ZodType<string, string> {
  return z.string().superRefine((value, context) => {
    // UTF-8 turns every lone surrogate into U+FFFD before hashing: "a\uD800" and "a\uDC00"
    // would be one password.
    if (!isWellFormedText(value)) {
      context.addIssue({ code: "custom", message: WELL_FORMED_PASSWORD });
      return;
    }
    const length = [...value].length;
    if (length < min) {
      context.addIssue({ code: "custom", message: `Must be at least ${min} characters` });
    } else if (length > PASSWORD_LENGTH.max) {
      context.addIssue({
        code: "custom",
        message:
          `Must be at most ${PASSWORD_LENGTH.max} characters (longer passwords are refused, not truncated)`,
      });
    }
  });
}

/**
 * The body of `POST /sign-up` and `POST /sign-in` (`client.signUp`, `client.signIn`,
 * `api.signUp`, `api.signIn`). Sign-up wants a valid address and an 8–128 character password.
 *
 * @example
 * ```ts
 * import type { AuthCredentialsBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthCredentialsBody = { email: "ada@example.com", password: "correct horse" };
 * ```
 */
export interface AuthCredentialsBody {
  /** The email address (trimmed and lower-cased by the module). */
  email: string;
  /** The password, 8–128 characters at sign-up. */
  password: string;
}

/** A new password: 8–128 well-formed characters (sign-up, reset, change). */
export const newPasswordSchema: z.ZodType<string, string> = passwordSchema(PASSWORD_LENGTH.min);

/** The body of `POST /sign-up`: a valid address, an 8–128 character well-formed password. */
export const signUpBody: z.ZodType<AuthCredentialsBody, AuthCredentialsBody> = exactSchema<
  AuthCredentialsBody
>()(z.object({
  email: emailSchema,
  password: passwordSchema(PASSWORD_LENGTH.min),
}));

/**
 * The body of `POST /sign-in`. It does not re-validate the address format: any string is looked
 * up (and fails the same way), so the response never tells a malformed address from an unknown
 * one.
 */
export const signInBody: z.ZodType<AuthCredentialsBody, AuthCredentialsBody> = exactSchema<
  AuthCredentialsBody
>()(z.object({
  email: z.string().max(MAX_EMAIL_LENGTH * 4).transform(normalizeEmail),
  password: passwordSchema(1),
}));

/**
 * The body of `POST /verify-email`: the token the verification mail carried.
 *
 * @example
 * ```ts
 * import type { AuthVerifyEmailBody } from "@app/fragment-cli/auth";
 *
 * const link = new URL("https://app.example.com/verify?token=3q2-7wE");
 * const body: AuthVerifyEmailBody = { token: link.searchParams.get("token") ?? "" };
 * ```
 */
export interface AuthVerifyEmailBody {
  /** The mailed token. */
  token: string;
}

/** The body of `POST /verify-email`: the mailed token. */
export const verifyEmailBody: z.ZodType<AuthVerifyEmailBody, AuthVerifyEmailBody> = exactSchema<
  AuthVerifyEmailBody
>()(z.object({ token: z.string().max(512) }));
