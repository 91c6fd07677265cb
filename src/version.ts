/**
 * The package version (a test keeps it equal to deno.json's), as the OpenAPI documents and
 * `fragment-cli --version` report it.
 *
 * @example
 * ```ts
 * import { VERSION } from "@app/fragment-cli";
 *
 * console.log(`fragment-cli ${VERSION}`);
 * ```
 */
export const VERSION = "0.1.0";
