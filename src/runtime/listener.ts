/** What each runtime adapter gives back once it listens. */
export interface Listener {
  /** The port actually bound (differs from the one asked for when that was 0). */
  port: number;
  /** Stops accepting connections and resolves when in-flight requests have finished. */
  close(): Promise<void>;
}

/** Where to listen. */
export interface ListenOptions {
  port: number;
  hostname: string;
}

/**
 * The one function every runtime adapter exports. Each passes `fetch` its runtime's connection
 * argument, from which the modules read the client's address (`socketAddress`).
 */
export type Listen = (
  fetch: (request: Request, connection?: unknown) => Promise<Response>,
  options: ListenOptions,
) => Promise<Listener>;

/**
 * Raised by `serve()` (and `fragment-cli serve`) when the port is already taken by another
 * process.
 *
 * @example Fall back to a free port
 * ```ts ignore
 * import { AddressInUseError, type ModuleInstance, serve } from "@app/fragment-cli";
 *
 * async function start(modules: ModuleInstance[]) {
 *   try {
 *     return await serve(modules, { port: 8080 });
 *   } catch (error) {
 *     if (!(error instanceof AddressInUseError)) throw error;
 *     return await serve(modules, { port: 0 });
 *   }
 * }
 * ```
 */
export class AddressInUseError extends Error {
  /**
   * An error naming the taken address and how to pick another.
   *
   * @param hostname The host the server tried to bind.
   * @param port The port that is taken.
   * @param options The error of the runtime, as `cause`.
   */
  constructor(hostname: string, port: number, options?: { cause?: unknown }) {
    super(`Port ${port} on ${hostname} is already in use; pick another one with --port`, options);
    this.name = "AddressInUseError";
  }
}
