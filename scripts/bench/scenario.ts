/**
 * What every scenario file exports, and what it is given.
 *
 * @module
 */
import type { BenchRow } from "./report.ts";
import type { Runtimes } from "./processes.ts";

/** Shared by every scenario of one benchmark run. */
export interface BenchContext {
  runtimes: Runtimes;
  /** Smoke mode: tiny request counts and sizes, a few seconds per scenario. */
  quick: boolean;
  /** Progress on stderr (stdout holds only the table). */
  log(message: string): void;
}

/** One scenario of the table. */
export interface Scenario {
  /** Its number in the issue (1–7). */
  number: number;
  title: string;
  run(context: BenchContext): Promise<BenchRow[]>;
}
