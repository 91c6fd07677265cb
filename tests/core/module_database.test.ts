import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { defineModule, HttpError, ModuleConfigError, route } from "../../mod.ts";
import { column, defineSchema } from "../../src/schema/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";

const notesSchema = defineSchema("notes", (s) =>
  s.createTable("notes", {
    id: column.text().primaryKey(),
    body: column.text(),
  }));

const notes = defineModule({
  name: "notes",
  schema: notesSchema,
  routes: ({ database }) => {
    const db = database!;
    const table = `"${db.namespace}"."notes"`;
    return [
      route({
        method: "PUT",
        path: "/notes/:id",
        body: z.object({ body: z.string() }),
        handler: async ({ params, body }) => {
          await db.adapter.query(
            `INSERT INTO ${table} (id, body) VALUES ($1, $2)
             ON CONFLICT (id) DO UPDATE SET body = excluded.body`,
            [params.id, body.body],
          );
          return { id: params.id, body: body.body };
        },
      }),
      route({
        method: "GET",
        path: "/notes/:id",
        handler: async ({ params }) => {
          const rows = await db.adapter.query(`SELECT id, body FROM ${table} WHERE id = $1`, [
            params.id,
          ]);
          if (rows.length === 0) throw new HttpError(404, "NOT_FOUND", "No such note");
          return rows[0];
        },
      }),
    ];
  },
});

describe("defineModule() with a schema", () => {
  it("refuses to instantiate without a database, naming the option", () => {
    assert.throws(
      () => notes(),
      (e: unknown) => e instanceof ModuleConfigError && /database/.test(e.message),
    );
  });

  forEachAdapter((_name, getAdapter) => {
    it("binds the schema, namespace and adapter, and its routes use them", async () => {
      const a = notes({ database: getAdapter() });
      const b = notes({ database: getAdapter(), namespace: "notes_b", mountRoute: "/api/notes-b" });
      assert.equal(a.database?.namespace, "notes");
      assert.equal(b.database?.namespace, "notes_b");
      assert.equal(a.database?.schema, notesSchema);
      for (const instance of [a, b]) {
        await migrate(getAdapter(), instance.database!.schema, {
          namespace: instance.database!.namespace,
        });
      }
      const put = await a.fetch(
        new Request("http://x/api/notes/notes/1", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ body: "in a" }),
        }),
      );
      assert.equal(put.status, 200);
      assert.deepEqual(await (await a.fetch(new Request("http://x/api/notes/notes/1"))).json(), {
        id: "1",
        body: "in a",
      });
      // The second instance lives in its own namespace: it does not see the first one's rows.
      assert.equal((await b.fetch(new Request("http://x/api/notes-b/notes/1"))).status, 404);
    });
  });
});
