/**
 * Scenario 2: the organizations API against better-auth's organization plugin, each on a fresh
 * database of the same server, same load, same connections. Each operation is measured on its
 * own: list my organizations (a user in 50), get organization, add member, create organization.
 *
 * Set-up per side: an owner who created 50 organizations, a few other signed-up users who create
 * the organizations of the create run (spreading them, so no single user's organization count
 * grows into the thousands), and users inserted by SQL to be added as members.
 *
 * @module
 */
import { withBenchDatabase } from "./databases.ts";
import type { LoadResult, PlannedRequest } from "./load_spec.ts";
import { type OrganizationSide, send, type SideUser } from "./organization_side.ts";
import { runLoad } from "./load_client.ts";
import type { ServerProcess } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

type Operation = "list" | "get" | "addMember" | "create";

const OPERATIONS: { key: Operation; name: (owned: number) => string }[] = [
  { key: "create", name: () => "create organization" },
  { key: "list", name: (owned) => `list my organizations (user in ${owned})` },
  { key: "addMember", name: () => "add member" },
  { key: "get", name: () => "get organization" },
];

/** How many organizations the measured user belongs to. */
const OWNED = 50;

interface Sizes {
  /** Organizations of the measured user (50; fewer in the smoke run). */
  owned: number;
  requests: number;
  warmup: number;
  connections: number;
  creators: number;
}

function sizes(context: BenchContext): Sizes {
  return context.quick
    ? { owned: 3, requests: 12, warmup: 0, connections: 4, creators: 2 }
    : { owned: OWNED, requests: 2000, warmup: 200, connections: 32, creators: 20 };
}

/** Scenario 2 comparing `ours` with `reference`. */
export function organizationsScenario(
  ours: OrganizationSide,
  reference: OrganizationSide,
): Scenario {
  return {
    number: 2,
    title: "organizations vs better-auth",
    async run(context: BenchContext): Promise<BenchRow[]> {
      // The smoke run's figures mean nothing: its two sides run at once to keep it short.
      const [r, o] = context.quick
        ? await Promise.all([measureSide(context, reference), measureSide(context, ours)])
        : [await measureSide(context, reference), await measureSide(context, ours)];
      const size = sizes(context);
      return OPERATIONS.map(({ key, name }, i) =>
        benchRow({
          scenario: 2,
          name: `${name(size.owned)} throughput`,
          unit: "req/s",
          ours: o[key].requestsPerSecond,
          reference: r[key].requestsPerSecond,
          referenceName: reference.name,
          target: { kind: "ratio-at-least", value: 2 },
          note: `${i === 0 ? `${size.requests} requests, ${size.connections} connections; ` : ""}` +
            `p99 ${o[key].p99} ms ours, ${r[key].p99} ms ${reference.name}`,
        })
      );
    },
  };
}

function measureSide(
  context: BenchContext,
  side: OrganizationSide,
): Promise<Record<Operation, LoadResult>> {
  const size = sizes(context);
  return withBenchDatabase(`orgs_${side.name}`, async (database) => {
    const server = await side.start(context, database.url);
    try {
      context.log(`${side.name}: set-up`);
      const owner = await side.signUp(server, "owner@bench.test");
      const creators: SideUser[] = [];
      for (let i = 0; i < size.creators; i++) {
        creators.push(await side.signUp(server, `creator${i}@bench.test`));
      }
      const organizations: string[] = [];
      for (let i = 0; i < size.owned; i++) {
        const answer = await send(server, side.createOrganization(owner, `Team ${i}`, `team-${i}`));
        organizations.push(side.createdOrganizationId(answer));
      }
      const listed = side.listedCount(await send(server, side.listOrganizations(owner)));
      if (listed !== size.owned) {
        throw new Error(`${side.name} lists ${listed} organizations, not ${size.owned}`);
      }
      const members = await side.seedUsers(database.url, "member", size.warmup + size.requests);

      const plan = (make: (i: number) => PlannedRequest): [PlannedRequest[], PlannedRequest[]] => [
        Array.from({ length: size.warmup }, (_, i) => make(i)),
        Array.from({ length: size.requests }, (_, i) => make(size.warmup + i)),
      ];
      const measure = async (op: Operation, planned: [PlannedRequest[], PlannedRequest[]]) => {
        context.log(`${side.name}: ${op}`);
        return checked(
          side,
          server,
          op,
          await runLoad(context.runtimes, {
            origin: server.origin,
            mode: "throughput",
            connections: size.connections,
            headers: {},
            warmup: planned[0],
            requests: planned[1],
          }),
          planned[1].length,
        );
      };
      // Creating comes last: it must not change what the other operations read.
      const list = await measure("list", plan(() => side.listOrganizations(owner)));
      const get = await measure(
        "get",
        plan((i) => side.getOrganization(owner, organizations[i % size.owned])),
      );
      const addMember = await measure(
        "addMember",
        plan((i) => side.addMember(owner, organizations[i % size.owned], members[i])),
      );
      const create = await measure(
        "create",
        plan((i) =>
          side.createOrganization(creators[i % creators.length], `Bench ${i}`, `bench-org-${i}`)
        ),
      );
      return { list, get, addMember, create };
    } finally {
      await server.stop();
    }
  });
}

function checked(
  side: OrganizationSide,
  server: ServerProcess,
  op: Operation,
  result: LoadResult,
  expected: number,
): LoadResult {
  const ok = Object.entries(result.statuses)
    .filter(([status]) => status.startsWith("2"))
    .reduce((sum, [, n]) => sum + n, 0);
  if (ok !== expected || result.errors > 0) {
    throw new Error(
      `${side.name} ${op}: ${ok}/${expected} answered 2xx, statuses ${
        JSON.stringify(result.statuses)
      }, ${result.errors} errors\n${server.output().slice(-2000)}`,
    );
  }
  return result;
}
