/**
 * A server process that outlives a database outage. postgres.js can leave, besides the error of
 * the query that used it, a second rejection of a write to a socket the database server closed
 * (seen on Deno while PostgreSQL stops: "This socket has been ended by the other party", EPIPE).
 * Nothing awaits that copy, and an unhandled rejection ends the process: `serve` then stops
 * answering for good, although every request was already answered 503 and the pool reconnects.
 *
 * @module
 */

import process from "node:process";

/** Socket error codes of a connection the other side closed. */
const CLOSED_SOCKET_CODES = new Set(["EPIPE", "ECONNRESET", "ERR_STREAM_WRITE_AFTER_END"]);

/**
 * Keeps `serve` alive through stray closed-socket rejections and exceptions (logged in one line);
 * any other unhandled rejection or uncaught exception still ends the process, as before.
 *
 * @param log Where the one-line notice goes.
 * @returns A function that removes the handler.
 */
export function surviveStraySocketErrors(log: (line: string) => void): () => void {
  // The same error can surface as an exception (a socket "error" event nobody listens to).
  const onStray = (reason: unknown): void => {
    const code = (reason as { code?: unknown } | null)?.code;
    if (typeof code === "string" && CLOSED_SOCKET_CODES.has(code)) {
      log(`warning: a database connection closed under a write (${code}); it reconnects\n`);
      return;
    }
    throw reason;
  };
  process.on("unhandledRejection", onStray);
  process.on("uncaughtException", onStray);
  return () => {
    process.off("unhandledRejection", onStray);
    process.off("uncaughtException", onStray);
  };
}
