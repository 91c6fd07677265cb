/** The package version; a test keeps it equal to deno.json's. */
export const VERSION = "0.1.0";
