/**
 * PgBouncer in transaction mode on 127.0.0.1:6432 (started by `.ci/pgbouncer.sh`, which `.ci/run`
 * runs) for the pooler tests: the pooled URL of a test database, and why the tests skip when no
 * pooler answers.
 *
 * @module
 */
import { connect } from "node:net";
import process from "node:process";

/** The pooler's address. */
export const POOLER_PORT: number = Number(process.env.TEST_POOLER_PORT ?? 6432);

/** `url` with its port replaced by the pooler's. */
export function pooledUrl(url: string): string {
  const parsed = new URL(url);
  parsed.port = String(POOLER_PORT);
  return parsed.toString();
}

/** `undefined` when PgBouncer answers on 127.0.0.1:6432, else why the pooler tests skip. */
export async function noPooler(): Promise<string | undefined> {
  const open = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port: POOLER_PORT });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
  return open
    ? undefined
    : `no PgBouncer on 127.0.0.1:${POOLER_PORT} (start it with .ci/pgbouncer.sh)`;
}
