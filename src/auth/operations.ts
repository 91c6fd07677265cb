/**
 * Every operation of the auth module, gathered from the concept folders that declare them (see
 * `http/operation.ts`). The name each is exported under is its name everywhere: the
 * `authModule.api` method, the OpenAPI `operationId`, the `AuthContract` key. A new operation
 * declared in one of these files needs nothing else here.
 *
 * @module
 */

export * from "./account/account_operations.ts";
export * from "./account/lifecycle_operations.ts";
export * from "./sessions/session_operations.ts";
export * from "./me/me_operations.ts";
export * from "./organizations/organization_operations.ts";
export * from "./organizations/member_operations.ts";
export * from "./organizations/invitation_operations.ts";
export * from "./organizations/audit_log_operations.ts";
export * from "./organizations/ownership_operations.ts";
export * from "./telegram/telegram_operations.ts";
export * from "./email_link/email_link_operations.ts";
export * from "./oauth/oauth_operations.ts";
export * from "./passkeys/passkey_operations.ts";
export * from "./two_factor/two_factor_operations.ts";
