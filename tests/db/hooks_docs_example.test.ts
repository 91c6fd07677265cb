// Runs the example of docs/hooks.md (docs/examples/durable_hooks.ts) on PGlite and PostgreSQL.
import { it } from "node:test";
import assert from "node:assert/strict";
import { runMailer } from "../../docs/examples/durable_hooks.ts";
import { forEachAdapter } from "../helpers/databases.ts";

forEachAdapter((name, getAdapter) => {
  it(`${name}: docs/examples/durable_hooks.ts sends one welcome mail per address (transaction or one statement)`, async () => {
    const sent = await runMailer(getAdapter());
    assert.equal(sent.length, 2);
    assert.match(sent[0], /^ada@example\.com \(occurrence \d+, attempt 1\)$/);
    assert.match(sent[1], /^grace@example\.com \(occurrence \d+, attempt 1\)$/);
  });
});
