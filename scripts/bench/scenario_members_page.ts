/**
 * Scenario 4: one members page (pageSize 50) at the first, middle and last page of organizations
 * with 1k, 100k and 1M members, on one server and database; the latency of each page against the
 * same page of the 1k organization. Latency is the median of sequential requests (µs timer).
 *
 * Members are inserted by SQL (with foreign-key triggers off for speed, then ANALYZE). The
 * cursors of the middle and last pages are made with the project's own cursor helpers from the
 * row before the page, exactly as the route would issue them after walking there; the bench
 * checks the last page really is the last.
 *
 * @module
 */
import postgres from "postgres";
import { keysetPage, keysetQuery } from "../../src/pagination/mod.ts";
import { CREATED_AT_ID } from "../../src/auth/organizations/page_order.ts";
import { BENCH_SECRET } from "./servers.ts";
import { withBenchDatabase } from "./databases.ts";
import type { LoadResult } from "./load_spec.ts";
import { send } from "./organization_side.ts";
import { AUTH_MOUNT, ourAuthSide, seedOurUsers } from "./our_auth_side.ts";
import { runLoad } from "./load_client.ts";
import type { ServerProcess } from "./processes.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

const PAGE_SIZE = 50;
/** Time budget of one case's measured requests (slow pages get fewer than `requests`). */
const BUDGET_SECONDS = 12;
/** Measurements of each case; the lower median is kept. */
const PASSES = 2;
const POSITIONS = ["first", "middle", "last"] as const;
type Position = typeof POSITIONS[number];

export const membersPageScenario: Scenario = {
  number: 4,
  title: "members page at depth",
  run(context: BenchContext): Promise<BenchRow[]> {
    const sizes = context.quick ? [100, 300, 600] : [1000, 100_000, 1_000_000];
    const requests = context.quick ? 3 : 300;
    const warmup = context.quick ? 0 : 30;
    return withBenchDatabase("members_page", async (database) => {
      const server = await ourAuthSide.start(context, database.url);
      try {
        context.log(`members page: seeding ${sizes.join(", ")} members`);
        const owner = await ourAuthSide.signUp(server, "owner@bench.test");
        const organizations: string[] = [];
        for (const size of sizes) {
          const answer = await send(
            server,
            ourAuthSide.createOrganization(owner, `Size ${size}`, `size-${size}`),
          );
          organizations.push(ourAuthSide.createdOrganizationId(answer));
        }
        await seedMembers(database.url, organizations, sizes);

        const paths: Record<string, string> = {};
        for (const [i, size] of sizes.entries()) {
          const cursors = await pageCursors(database.url, organizations[i], size);
          for (const position of POSITIONS) {
            const path =
              `${AUTH_MOUNT}/organizations/${organizations[i]}/members?pageSize=${PAGE_SIZE}` +
              (cursors[position] ? `&cursor=${encodeURIComponent(cursors[position]!)}` : "");
            await checkPage(server, path, owner.headers, size, position);
            paths[`${size}:${position}`] = path;
          }
        }
        // Every case twice, keeping the lower median: a burst of other work on the shared
        // machine during one case then does not decide its figure.
        const latency: Record<string, LoadResult> = {};
        const passes = context.quick ? 1 : PASSES;
        for (let pass = 0; pass < passes; pass++) {
          for (const [key, path] of Object.entries(paths)) {
            context.log(`members page: ${key.replace(":", " members, ")} page, pass ${pass + 1}`);
            const planned = { method: "GET", path, headers: owner.headers };
            const result = await runLoad(context.runtimes, {
              origin: server.origin,
              mode: "latency",
              connections: 1,
              headers: {},
              warmup: Array.from({ length: warmup }, () => planned),
              requests: Array.from({ length: requests }, () => planned),
              budgetSeconds: BUDGET_SECONDS,
            });
            if ((result.statuses["200"] ?? 0) !== result.requests || result.errors > 0) {
              throw new Error(`members page ${key}: ${JSON.stringify(result.statuses)}`);
            }
            if (!latency[key] || result.p50 < latency[key].p50) latency[key] = result;
          }
        }
        const [base, ...deeper] = sizes;
        return deeper.flatMap((size) =>
          POSITIONS.map((position, p) => {
            const ours = latency[`${size}:${position}`];
            const reference = latency[`${base}:${position}`];
            return benchRow({
              scenario: 4,
              name: `members page, ${label(size)} members, ${position} page`,
              unit: "ms",
              ours: ours.p50,
              reference: reference.p50,
              referenceName: `${label(base)}, ${position} page`,
              target: size === sizes.at(-1)
                ? { kind: "ratio-at-most", value: 1.5 }
                : { kind: "report" },
              note: (size === deeper[0] && p === 0
                ? `median of ${requests} sequential requests (or ${BUDGET_SECONDS} s), lower of ` +
                  `${passes} passes; `
                : "") + `p99 ${ours.p99.toFixed(2)} ms vs ${reference.p99.toFixed(2)} ms`,
            });
          })
        );
      } finally {
        await server.stop();
      }
    });
  },
};

function label(size: number): string {
  return size >= 1_000_000 ? `${size / 1_000_000}M` : size >= 1000 ? `${size / 1000}k` : `${size}`;
}

/** The 0-based index of the page at `position` in a list of `size` members. */
function pageIndex(position: Position, size: number): number {
  const pages = Math.ceil(size / PAGE_SIZE);
  return position === "first" ? 0 : position === "middle" ? Math.floor(pages / 2) : pages - 1;
}

/** Fills each organization up to its size (the owner is already its first member). */
async function seedMembers(
  databaseUrl: string,
  organizations: readonly string[],
  sizes: readonly number[],
): Promise<void> {
  const largest = Math.max(...sizes);
  await seedOurUsers(databaseUrl, "member", largest - 1);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe("SET session_replication_role = replica");
    for (const [i, organization] of organizations.entries()) {
      await sql`
        INSERT INTO auth.members (organization_id, user_id, roles, created_at, updated_at)
        SELECT ${organization}, u.id, '["member"]'::jsonb,
               now() + u.n * interval '1 millisecond', now() + u.n * interval '1 millisecond'
        FROM (SELECT id, row_number() OVER (ORDER BY email) AS n FROM auth.users
              WHERE email LIKE 'member-%') AS u
        WHERE u.n < ${sizes[i]}`;
    }
    await sql.unsafe("SET session_replication_role = DEFAULT");
    // Now, not by autovacuum in the middle of the measurements.
    await sql.unsafe("VACUUM (ANALYZE) auth.members, auth.users");
  } finally {
    await sql.end();
  }
}

/** The cursors of the middle and last pages, built from the row before each page. */
async function pageCursors(
  databaseUrl: string,
  organization: string,
  size: number,
): Promise<Record<Position, string | null>> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const cursorOf = async (page: number): Promise<string> => {
      const q = keysetQuery({
        listId: `members:${organization}`,
        columns: CREATED_AT_ID,
        secret: BENCH_SECRET,
        table: "m",
        pageSize: PAGE_SIZE,
      });
      const rows = await sql.unsafe(
        `SELECT ${q.select} FROM auth.members m WHERE m.organization_id = $1
         ORDER BY ${q.orderBy} OFFSET $2 LIMIT ${q.limit}`,
        [organization, (page - 1) * PAGE_SIZE],
      );
      const cursor = keysetPage(rows as unknown as Record<string, unknown>[], q).cursor;
      if (!cursor) throw new Error(`no cursor for page ${page} of ${size} members`);
      return cursor;
    };
    return {
      first: null,
      middle: await cursorOf(pageIndex("middle", size)),
      last: await cursorOf(pageIndex("last", size)),
    };
  } finally {
    await sql.end();
  }
}

/** The page answers 200 with a full page, and the last page is the last. */
async function checkPage(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  size: number,
  position: Position,
): Promise<void> {
  const page = await send(server, { method: "GET", path, headers }) as {
    members: unknown[];
    hasNextPage: boolean;
  };
  const pages = Math.ceil(size / PAGE_SIZE);
  const isLast = pageIndex(position, size) === pages - 1;
  const expected = isLast ? size - (pages - 1) * PAGE_SIZE : PAGE_SIZE;
  if (page.members.length !== expected || page.hasNextPage === isLast) {
    throw new Error(
      `${position} page of ${size} members: ${page.members.length} members, ` +
        `hasNextPage ${page.hasNextPage}, want ${expected} and ${!isLast}`,
    );
  }
}
