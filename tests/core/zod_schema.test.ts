// ZodSchema, the documented shape of the zod schemas of routes and configs: handlers are typed
// from it as from z.ZodType, an object that is not a zod schema does not type-check, and zodOf
// gives back the schema itself (the type assertions fail the suite's type check, not a run).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { defineModule, route } from "../../src/core/mod.ts";
import { zodOf } from "../../src/core/zod_schema.ts";

describe("ZodSchema", () => {
  it("types a handler from its schemas and hands zod the schema itself", async () => {
    const params = z.object({ id: z.coerce.number() });
    const byId = route({
      method: "GET",
      path: "/notes/:id",
      params,
      handler: ({ params }) => {
        const id: number = params.id;
        // @ts-expect-error: not a field of the params schema
        params.name;
        return { id };
      },
    });
    assert.equal(zodOf(byId.params!), params);
    assert.deepEqual(zodOf(byId.params!).parse({ id: "7" }), { id: 7 });
    const notes = defineModule({
      name: "notes",
      config: z.object({ pageSize: z.number().default(20) }),
      routes: ({ config }) => [
        route({ method: "GET", path: "/size", handler: () => ({ size: config.pageSize }) }),
      ],
    });
    // @ts-expect-error: the config schema takes a number
    assert.throws(() => notes({ config: { pageSize: "many" } }));
    const response = await notes().fetch(new Request("http://localhost/api/notes/size"));
    assert.deepEqual(await response.json(), { size: 20 });
  });

  it("takes no object that is not a zod schema", () => {
    const notZod = { parse: (value: unknown) => value };
    // @ts-expect-error: only zod schemas carry `_zod`
    const loose = route({ method: "GET", path: "/", params: notZod, handler: () => null });
    assert.equal(loose.params, notZod);
  });
});
