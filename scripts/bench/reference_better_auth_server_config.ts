/**
 * Settings shared by the better-auth reference server and the bench that drives it (kept apart
 * so importing them does not start the server).
 *
 * @module
 */

/** The Origin the bench sends, trusted by better-auth's CSRF check as a browser's would be. */
export const BETTER_AUTH_ORIGIN = "http://bench.localhost";
