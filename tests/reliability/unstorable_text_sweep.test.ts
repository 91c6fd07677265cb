// Every string an input schema of a first-party route declares (path parameters, body and query,
// nested ones included), one at a time, set to text PostgreSQL cannot store (U+0000, a lone surrogate), the
// rest of the input valid: never a 5xx, the error shape, and a rejected request writes nothing, on
// PGlite and on the PostgreSQL server. The route fuzzer reaches such a field only by chance (it
// found a passkey name that answered 500 after many runs missed it); this sweep tries them all.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import {
  buildRequest,
  REAL_IDS,
  type Ref,
  type RequestSpec,
  type RouteInfo,
} from "./helpers/fuzz_requests.ts";
import { FuzzWorld } from "./helpers/fuzz_world.ts";
import { OutputLog } from "./helpers/output_log.ts";
import {
  exampleOf,
  type JsonSchema,
  replacedAt,
  stringPaths,
  type ValuePath,
} from "./helpers/schema_example.ts";

const UNSTORABLE = ["a\u0000b", "\ud800x", "x\udfff"];

/** An input as [required fields only, every field]. */
type Pair = [unknown, unknown];

/** One route's inputs and cases. */
interface Inputs {
  body: Pair;
  query: Pair;
  cases: Case[];
}

interface Case {
  route: number;
  where: "body" | "query" | "path";
  path: ValuePath;
  text: string;
}

forEachAdapter((name, getAdapter) => {
  describe(`unstorable text in every declared string (${name})`, () => {
    const log = new OutputLog();
    let world: FuzzWorld;
    let routes: RouteInfo[];
    /** Each route's operation in its module's OpenAPI document, with the document. */
    const operations: Array<{ operation: JsonSchema; document: JsonSchema } | undefined> = [];

    before(async () => {
      world = await log.captureConsole(
        `${name} setup`,
        () => FuzzWorld.create(getAdapter() as SqlAdapter, log),
      );
      routes = [];
      for (const module of world.modules) {
        const response = await world.fetch(
          new Request(`http://localhost${module.mountRoute}/openapi.json`),
        );
        assert.equal(response.status, 200, `${module.name}'s OpenAPI document`);
        const document = await response.json() as JsonSchema;
        const paths = document.paths as { [path: string]: { [method: string]: JsonSchema } };
        for (const route of module.routes) {
          routes.push({ method: route.method, path: route.path });
          const openApiPath = route.path.replace(/:([A-Za-z]+)/g, "{$1}");
          const item = paths[openApiPath] ?? paths[openApiPath.slice(module.mountRoute.length)];
          const operation = item?.[route.method.toLowerCase()];
          operations.push(operation ? { operation, document } : undefined);
        }
      }
    }, { timeout: 120_000 });

    /**
     * The inputs of one route, each as [required fields only, every field], and a case per
     * string of the second.
     */
    function casesOf(index: number): Inputs {
      const none: Inputs = {
        body: [undefined, undefined],
        query: [undefined, undefined],
        cases: [],
      };
      const found = operations[index];
      if (found === undefined) return none;
      const { operation, document } = found;
      const resolve = (ref: string): JsonSchema =>
        ref.slice(2).split("/").reduce(
          (node: unknown, key) => (node as JsonSchema)[key],
          document,
        ) as JsonSchema;
      const content = (operation.requestBody as JsonSchema | undefined)?.content as
        | { [type: string]: { schema: JsonSchema } }
        | undefined;
      const bodySchema = content?.["application/json"]?.schema;
      const body: Pair = bodySchema === undefined
        ? [undefined, undefined]
        : [exampleOf(bodySchema, resolve, "", false), exampleOf(bodySchema, resolve)];
      const parameters = ((operation.parameters ?? []) as JsonSchema[])
        .filter((parameter) => parameter.in === "query");
      const queryOf = (every: boolean) =>
        parameters.length === 0 ? undefined : Object.fromEntries(
          parameters.filter((parameter) => every || parameter.required === true).map((
            parameter,
          ) => [
            parameter.name,
            String(exampleOf(parameter.schema as JsonSchema, resolve, String(parameter.name))),
          ]),
        );
      const query: Pair = [queryOf(false), queryOf(true)];
      const cases: Case[] = [];
      for (const [, param] of routes[index].path.matchAll(/:([A-Za-z]+)/g)) {
        for (const text of UNSTORABLE) {
          cases.push({ route: index, where: "path", path: [param], text });
        }
      }
      for (const [where, [, every]] of [["body", body], ["query", query]] as const) {
        for (const path of every === undefined ? [] : stringPaths(every)) {
          for (const text of UNSTORABLE) cases.push({ route: index, where, path, text });
        }
      }
      return { body, query, cases };
    }

    function specOf(index: number, body: unknown, query: unknown, each: Case): RequestSpec {
      const route = routes[index];
      const params: Ref[] = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, param]): Ref => {
        if (each.where === "path" && each.path[0] === param) return { raw: each.text };
        // The world's row for the parameters it has rows for; any other takes a fresh uuid.
        const real = REAL_IDS[param]?.[0];
        return real ? { id: real, mangle: "none" } : { raw: crypto.randomUUID() };
      });
      return {
        route: index,
        method: null,
        params,
        suffix: "",
        query: Object.entries((query ?? {}) as Record<string, unknown>).map((
          [key, value],
        ) => [key, { raw: String(value) }]),
        auth: { kind: "person", person: "owner", transport: "bearer", mangle: "none" },
        webhookSecret: "right",
        headers: [],
        body: body === undefined ? null : { kind: "json", value: body },
      };
    }

    it("answers 4xx or stores the text, never 5xx, and a rejection writes nothing", async () => {
      let tried = 0;
      const failures: string[] = [];
      for (let index = 0; index < routes.length; index++) {
        const { body, query, cases } = casesOf(index);
        for (const each of cases) {
          const spec = specOf(
            index,
            each.where === "body" ? replacedAt(body[0], each.path, each.text, body[1]) : body[0],
            each.where === "query"
              ? replacedAt(query[0], each.path, each.text, query[1])
              : query[0],
            each,
          );
          const request = buildRequest(spec, routes, world);
          const response = await log.captureConsole(`${name} modules`, () => world.fetch(request));
          const text = await response.text();
          tried++;
          const where = `${request.method} ${new URL(request.url).pathname} ${each.where} ${
            JSON.stringify(each.path)
          } = ${JSON.stringify(each.text)} → ${response.status} ${text.slice(0, 200)}`;
          if (response.status >= 500) {
            failures.push(where);
            world.baseline = await world.snapshot();
            continue;
          }
          if (response.status < 400) {
            await world.repair();
            continue;
          }
          if (request.method !== "HEAD") {
            assert.match(JSON.parse(text)?.error?.code ?? "", /^[A-Z][A-Z0-9_]*$/, where);
          }
          assert.deepEqual(await world.snapshot(), world.baseline, `a rejection wrote: ${where}`);
        }
      }
      assert.deepEqual(failures, []);
      // Every route with a body or a query declares strings: a schema the examples could not
      // read would shrink the sweep without failing it.
      assert.ok(tried >= UNSTORABLE.length * 60, `${tried} cases`);
    });
  });
});
