// Issue 22, point 4: every method/path pair of a module answers consistently. On a path, either
// every method gets 404, or the methods that reach a handler succeed and every other one gets a
// 405 whose `Allow` names exactly those (and OPTIONS answers 204 with the same `Allow`): never a
// 405 naming a method that would itself get a 404 or a 405. Property-based over random route
// tables and request paths (trailing and doubled slashes, escapes, dot segments), through the
// public API (`createModule(…).fetch`).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createModule, type HttpMethod, type ModuleInstance, route } from "../../mod.ts";

const ROUTE_METHODS: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const REQUEST_METHODS = [...ROUTE_METHODS, "HEAD", "OPTIONS"];
const MOUNT = "/api/ping";

/** A module whose handlers always answer 200: any 404 or 405 comes from routing alone. */
function moduleOf(table: ReadonlyArray<{ method: HttpMethod; path: string }>): ModuleInstance {
  return createModule({
    name: "ping",
    routes: table.map((r) => route({ ...r, handler: () => ({ route: `${r.method} ${r.path}` }) })),
  });
}

/** The status and `Allow` of every request method on one path. */
async function answersOn(
  module: ModuleInstance,
  path: string,
): Promise<Map<string, { status: number; allow: string | null }>> {
  const answers = new Map<string, { status: number; allow: string | null }>();
  for (const method of REQUEST_METHODS) {
    const response = await module.fetch(new Request(`http://localhost${path}`, { method }));
    await response.body?.cancel();
    answers.set(method, { status: response.status, allow: response.headers.get("allow") });
  }
  return answers;
}

const sortedList = (methods: Iterable<string>): string => [...methods].sort().join(", ");
const sortedAllow = (allow: string | null): string =>
  sortedList((allow ?? "").split(",").map((m) => m.trim()).filter(Boolean));

/** Asserts the consistency rule on one path; returns whether some method got a 405. */
async function checkPath(module: ModuleInstance, path: string): Promise<boolean> {
  const answers = await answersOn(module, path);
  const where = `${path}: ${JSON.stringify(Object.fromEntries(answers))}`;
  for (const { status } of answers.values()) {
    assert.ok([200, 204, 404, 405].includes(status), `unexpected status: ${where}`);
  }
  const succeeded = REQUEST_METHODS.filter((m) =>
    m !== "OPTIONS" && answers.get(m)!.status === 200
  );
  if (succeeded.length === 0) {
    for (const [method, { status }] of answers) assert.equal(status, 404, `${method} ${where}`);
    return false;
  }
  assert.equal(succeeded.includes("HEAD"), succeeded.includes("GET"), `HEAD follows GET: ${where}`);
  const allow = sortedList([...succeeded, "OPTIONS"]);
  let refused = false;
  for (const [method, { status, allow: header }] of answers) {
    if (succeeded.includes(method)) continue;
    assert.equal(status, method === "OPTIONS" ? 204 : 405, `${method} ${where}`);
    assert.equal(sortedAllow(header), allow, `${method}: Allow names what succeeds: ${where}`);
    refused ||= status === 405;
  }
  return refused;
}

const segment = fc.constantFrom("a", "b", ":id");
const routeTable = fc.uniqueArray(
  fc.record({
    method: fc.constantFrom(...ROUTE_METHODS),
    path: fc.tuple(fc.array(segment, { maxLength: 2 }), fc.boolean()).map(([segments, slash]) =>
      segments.length === 0 ? "/" : `/${segments.join("/")}${slash ? "/" : ""}`
    ),
  }),
  { minLength: 1, maxLength: 6, selector: (r) => `${r.method} ${r.path}` },
);
const requestPath = fc.tuple(
  fc.array(fc.constantFrom("a", "b", "c", "%61", "%2F", ".", ""), { maxLength: 3 }),
  fc.constantFrom("", "/", "//"),
).map(([segments, tail]) => `${MOUNT}${segments.map((s) => `/${s}`).join("")}${tail}`);

describe("routing answers every method/path pair consistently", () => {
  it("the README's ping: GET / answers with and without the trailing slash", async () => {
    const ping = moduleOf([{ method: "GET", path: "/" }]);
    for (const path of [MOUNT, `${MOUNT}/`]) {
      const ok = await ping.fetch(new Request(`http://localhost${path}`));
      assert.equal(ok.status, 200, path);
      assert.deepEqual(await ok.json(), { route: "GET /" });
      const post = await ping.fetch(new Request(`http://localhost${path}`, { method: "POST" }));
      assert.equal(post.status, 405, path);
      assert.equal(post.headers.get("allow"), "GET, HEAD, OPTIONS");
      assert.equal((await post.json()).error.code, "METHOD_NOT_ALLOWED");
      assert.ok(await checkPath(ping, path));
    }
    const doubled = await ping.fetch(new Request(`http://localhost${MOUNT}//`, { method: "POST" }));
    assert.equal(doubled.status, 404);
  });

  it("a declared path wins over the trailing-slash twin of another route", async () => {
    const module = moduleOf([{ method: "GET", path: "/a" }, { method: "GET", path: "/a/" }, {
      method: "POST",
      path: "/a/",
    }]);
    const plain = await module.fetch(new Request(`http://localhost${MOUNT}/a`));
    assert.deepEqual(await plain.json(), { route: "GET /a" });
    const slashed = await module.fetch(new Request(`http://localhost${MOUNT}/a/`));
    assert.deepEqual(await slashed.json(), { route: "GET /a/" });
    const post = await module.fetch(new Request(`http://localhost${MOUNT}/a`, { method: "POST" }));
    assert.deepEqual(await post.json(), { route: "POST /a/" });
  });

  it("random route tables × paths × methods: a 405 only names methods that succeed", async () => {
    let refusals = 0;
    await fc.assert(
      fc.asyncProperty(routeTable, fc.array(requestPath, { minLength: 1, maxLength: 6 }), async (
        table,
        paths,
      ) => {
        const module = moduleOf(table);
        // Paths the table declares, and their trailing-slash twins, besides the random ones.
        const declared = table.flatMap((r) => {
          const path = `${MOUNT}${r.path === "/" ? "" : r.path.replaceAll(":id", "x")}`;
          return [path, path.endsWith("/") ? path.slice(0, -1) : `${path}/`];
        });
        for (const path of [...declared, ...paths]) {
          if (await checkPath(module, path)) refusals++;
        }
      }),
      { numRuns: 150 },
    );
    assert.ok(refusals > 0, "no case answered 405: the generators miss a path");
  });
});
