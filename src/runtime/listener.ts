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

/** Raised when the port is already taken by another process. */
export class AddressInUseError extends Error {
  constructor(hostname: string, port: number, options?: { cause?: unknown }) {
    super(`Port ${port} on ${hostname} is already in use; pick another one with --port`, options);
    this.name = "AddressInUseError";
  }
}
