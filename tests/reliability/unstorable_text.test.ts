// Found by the route fuzzer: organization names, logo URLs and metadata carrying U+0000 or an
// unpaired surrogate answered 500, and so did a sign-in with such an email address (PostgreSQL
// refuses NUL in text and jsonb, and lone surrogates have no UTF-8 form: the server refused
// them, or the driver silently stored U+FFFD). They are validation errors now (the sign-in, an
// unknown address), on PGlite and on the PostgreSQL server, and write nothing.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { SqlAdapter } from "../../src/sql/mod.ts";
import { forEachAdapter } from "../helpers/databases.ts";
import { FuzzWorld } from "./helpers/fuzz_world.ts";
import { OutputLog } from "./helpers/output_log.ts";

const REJECTED: Array<[string, "POST" | "PATCH", Record<string, unknown>]> = [
  ["a name with U+0000", "POST", { name: "a\u0000b", slug: "nul-name" }],
  ["a name with a lone high surrogate", "POST", { name: "\ud800", slug: "lone-high" }],
  ["a logo URL with U+0000", "POST", {
    name: "Logo",
    slug: "nul-logo",
    logoUrl: "https://example.com/\u0000.png",
  }],
  ["metadata with U+0000 in a string", "POST", {
    name: "Meta",
    slug: "nul-meta",
    metadata: { note: "x\u0000y" },
  }],
  ["metadata with U+0000 in a key", "POST", {
    name: "Meta",
    slug: "nul-key",
    metadata: { ["k\u0000"]: 1 },
  }],
  ["metadata that is a lone surrogate", "PATCH", { metadata: "\ud800" }],
  ["a renamed name with a lone low surrogate", "PATCH", { name: "\udfffx" }],
  ["nested metadata with a lone surrogate", "PATCH", {
    metadata: { a: [{ b: ["ok", "\udc00"] }] },
  }],
];

forEachAdapter((name, getAdapter) => {
  describe(`organization text PostgreSQL cannot store (${name})`, () => {
    const log = new OutputLog();
    let world: FuzzWorld;
    before(async () => {
      world = await FuzzWorld.create(getAdapter() as SqlAdapter, log);
    }, { timeout: 120_000 });

    async function send(method: string, path: string, body: unknown): Promise<Response> {
      return await world.fetch(
        new Request(`http://localhost/api/auth${path}`, {
          method,
          headers: {
            authorization: `Bearer ${world.accounts.get("owner")!.token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
        }),
      );
    }

    for (const [label, method, body] of REJECTED) {
      it(`${label}: 400 VALIDATION_ERROR, nothing written`, async () => {
        const before = await world.snapshot();
        const path = method === "POST"
          ? "/organizations"
          : `/organizations/${world.ids.get("organization")}`;
        const response = await log.captureConsole(name, () => send(method, path, body));
        const answer = await response.json();
        assert.equal(response.status, 400, JSON.stringify(answer));
        assert.equal(answer.error.code, "VALIDATION_ERROR");
        assert.deepEqual(await world.snapshot(), before);
      });
    }

    for (const email of ["owner\u0000@example.com", "\ud800@example.com"]) {
      it(`sign-in with ${JSON.stringify(email)}: 401 INVALID_CREDENTIALS like any unknown address`, async () => {
        const before = await world.snapshot();
        const response = await world.fetch(
          new Request("http://localhost/api/auth/sign-in", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, password: "correct horse battery" }),
          }),
        );
        const answer = await response.json();
        assert.equal(response.status, 401, JSON.stringify(answer));
        assert.equal(answer.error.code, "INVALID_CREDENTIALS");
        assert.deepEqual(await world.snapshot(), before);
      });
    }

    it("well-formed Unicode (emoji, combining marks, RTL) is stored exactly", async () => {
      const text = "Café 😀 e\u0301 \u202eabc";
      const response = await send("POST", "/organizations", {
        name: text,
        slug: "unicode-ok",
        metadata: { text },
      });
      const answer = await response.json();
      assert.equal(response.status, 201, JSON.stringify(answer));
      assert.equal(answer.organization.name, text);
      assert.deepEqual(answer.organization.metadata, { text });
    });
  });
});
