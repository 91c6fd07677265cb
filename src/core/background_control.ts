import type { DrainOptions, DrainResult } from "../hooks/mod.ts";
import type { ModuleBackground, ModuleBackgroundControl } from "./module_instance.ts";

/** What {@link backgroundControl} gives the module it belongs to. */
export interface BackgroundLifecycle {
  /** The control exposed as the module's `background`. */
  control: ModuleBackgroundControl;
  /** Called by every request: starts the work the first time, unless told otherwise. */
  startOnRequest(): void;
  /**
   * Stops the work for good (no request starts it again; `start()` alone restarts it) and waits
   * for the drains in flight.
   */
  close(): Promise<void>;
}

/**
 * Wraps a module's background work so that it runs once whoever starts it: the first request,
 * `serve()`, the application, concurrently or not. Starts and stops are serialized, so a `stop()`
 * during a `start()` runs after it, and a `start()` during a `stop()` starts a fresh worker once
 * the old one has finished.
 *
 * The first request starts the work only while nobody has decided yet: once `start()`, `stop()`
 * or `close()` has been called, requests leave the work alone (an explicit stop stays stopped).
 */
export function backgroundControl(
  moduleName: string,
  work: ModuleBackground,
  autoStart: boolean,
): BackgroundLifecycle {
  let armed = autoStart;
  let started = false;
  let wanted = false;
  let pendingStart: Promise<void> | undefined;
  let queue: Promise<void> = Promise.resolve();
  /** Drains in flight, e.g. started after a response and not awaited: close() waits for them. */
  const drains = new Set<Promise<void>>();

  function serialized(operation: () => Promise<void>): Promise<void> {
    const run = queue.then(operation);
    queue = run.then(() => {}, () => {});
    return run;
  }

  function start(): Promise<void> {
    armed = false;
    if (wanted && pendingStart) return pendingStart;
    wanted = true;
    pendingStart = serialized(async () => {
      if (started || !wanted) return;
      try {
        await work.start();
        started = true;
      } catch (error) {
        wanted = false;
        throw error;
      }
    });
    return pendingStart;
  }

  function stop(): Promise<void> {
    armed = false;
    wanted = false;
    pendingStart = undefined;
    return serialized(async () => {
      if (!started) return;
      started = false;
      await work.stop();
    });
  }

  const control: ModuleBackgroundControl = Object.freeze({
    get running(): boolean {
      return started;
    },
    start,
    stop,
    drain(options?: DrainOptions): Promise<DrainResult> {
      if (!work.drain) {
        return Promise.reject(
          new TypeError(`The background work of module "${moduleName}" has no drain()`),
        );
      }
      const draining = work.drain(options);
      const tracked = draining.then(() => {}, () => {}).finally(() => drains.delete(tracked));
      drains.add(tracked);
      return draining;
    },
  });

  return {
    control,
    startOnRequest(): void {
      if (!armed) return;
      start().catch((error) => {
        console.error(`[${moduleName}] background work failed to start:`, error);
      });
    },
    async close(): Promise<void> {
      await stop();
      while (drains.size > 0) await Promise.all(drains);
    },
  };
}
