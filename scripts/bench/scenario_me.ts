/**
 * Scenario 3: `GET /me` of a user in 50 organizations with 5 pending invitations, against a user
 * in 1 organization, on the same server. SQL round trips per request come from the adapter's
 * `stats.queries` (read through the bench app's `/api/bench/stats` around a batch of sequential
 * requests; the smallest batch wins, so a background poll of the hook worker is not counted);
 * throughput from autocannon.
 *
 * @module
 */
import { withBenchDatabase } from "./databases.ts";
import type { LoadResult, PlannedRequest } from "./load_spec.ts";
import { send, type SideUser } from "./organization_side.ts";
import { AUTH_MOUNT, ourAuthSide } from "./our_auth_side.ts";
import { runLoad } from "./load_client.ts";
import type { ServerProcess } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

const ORGANIZATIONS = 50;
const INVITATIONS = 5;
/** The smoke run's user: fewer organizations to create one by one. */
const QUICK_ORGANIZATIONS = 5;

export const meScenario: Scenario = {
  number: 3,
  title: "GET /me",
  run(context: BenchContext): Promise<BenchRow[]> {
    const size = context.quick
      ? { requests: 20, warmup: 0, connections: 4, batches: 1, batch: 3 }
      : { requests: 6000, warmup: 600, connections: 32, batches: 5, batch: 20 };
    return withBenchDatabase("me", async (database) => {
      const server = await ourAuthSide.start(context, database.url);
      try {
        context.log("GET /me: set-up");
        const organizations = context.quick ? QUICK_ORGANIZATIONS : ORGANIZATIONS;
        const { many, one } = await setUp(server, organizations);
        const me = (user: SideUser): PlannedRequest => ({
          method: "GET",
          path: `${AUTH_MOUNT}/me`,
          headers: user.headers,
        });
        const trips = async (user: SideUser): Promise<number> => {
          const perRequest: number[] = [];
          for (let b = 0; b < size.batches; b++) {
            const before = await queries(server);
            for (let i = 0; i < size.batch; i++) await send(server, me(user));
            perRequest.push(((await queries(server)) - before) / size.batch);
          }
          return Math.min(...perRequest);
        };
        const load = async (user: SideUser): Promise<LoadResult> => {
          const result = await runLoad(context.runtimes, {
            origin: server.origin,
            mode: "throughput",
            connections: size.connections,
            headers: {},
            warmup: Array.from({ length: size.warmup }, () => me(user)),
            requests: Array.from({ length: size.requests }, () => me(user)),
          });
          if ((result.statuses["200"] ?? 0) !== size.requests || result.errors > 0) {
            throw new Error(
              `GET /me load: ${JSON.stringify(result.statuses)}, ${result.errors} errors`,
            );
          }
          return result;
        };
        const tripsMany = await trips(many);
        const tripsOne = await trips(one);
        const loadOne = await load(one);
        const loadMany = await load(many);
        return [
          benchRow({
            scenario: 3,
            name:
              `GET /me SQL round trips, user in ${organizations} orgs + ${INVITATIONS} invitations`,
            unit: "queries",
            ours: tripsMany,
            reference: tripsOne,
            referenceName: "user in 1 org",
            target: { kind: "at-most", value: 3 },
            note: `adapter stats.queries per request (credential lookup included), smallest of ` +
              `${size.batches} batches of ${size.batch} sequential requests`,
          }),
          benchRow({
            scenario: 3,
            name: `GET /me throughput, user in ${organizations} orgs + ${INVITATIONS} invitations`,
            unit: "req/s",
            ours: loadMany.requestsPerSecond,
            reference: loadOne.requestsPerSecond,
            referenceName: "user in 1 org",
            target: { kind: "ratio-at-least", value: 0.7 },
            note:
              `${size.requests} requests, ${size.connections} connections; p99 ${loadMany.p99} ms ` +
              `(${organizations} orgs), ${loadOne.p99} ms (1 org)`,
          }),
        ];
      } finally {
        await server.stop();
      }
    });
  },
};

/** A user in `organizations` organizations invited to 5 more, and a user in 1 organization. */
async function setUp(
  server: ServerProcess,
  organizations: number,
): Promise<{ many: SideUser; one: SideUser }> {
  const side = ourAuthSide;
  const many = await side.signUp(server, "many@bench.test");
  const inviter = await side.signUp(server, "inviter@bench.test");
  const one = await side.signUp(server, "one@bench.test");
  for (let i = 0; i < organizations; i++) {
    await send(server, side.createOrganization(many, `Many ${i}`, `many-${i}`));
  }
  for (let i = 0; i < INVITATIONS; i++) {
    const answer = await send(
      server,
      side.createOrganization(inviter, `Inviter ${i}`, `inviter-${i}`),
    );
    await send(server, {
      method: "POST",
      path: `${AUTH_MOUNT}/organizations/${side.createdOrganizationId(answer)}/invitations`,
      headers: inviter.headers,
      body: JSON.stringify({ email: "many@bench.test" }),
    });
  }
  await send(server, side.createOrganization(one, "One", "one-org"));
  const check = async (user: SideUser, organizations: number, invitations: number) => {
    const body = await send(server, {
      method: "GET",
      path: `${AUTH_MOUNT}/me`,
      headers: user.headers,
    }) as {
      organizations: unknown[];
      invitations: unknown[];
    };
    if (body.organizations.length !== organizations || body.invitations.length !== invitations) {
      throw new Error(
        `GET /me lists ${body.organizations.length} organizations and ${body.invitations.length} ` +
          `invitations, want ${organizations} and ${invitations}`,
      );
    }
  };
  await check(many, organizations, INVITATIONS);
  await check(one, 1, 0);
  return { many, one };
}

/** The auth adapter's query counter, through the bench app. */
async function queries(server: ServerProcess): Promise<number> {
  const stats = await send(server, { method: "GET", path: "/api/bench/stats" }) as {
    queries: number;
  };
  return stats.queries;
}
