/**
 * Bench scenario 12 holds its targets: the client and the store under 6 KB minified and gzipped,
 * each framework binding under 2 KB beyond them (bytes: no quiet machine needed).
 */
import { it } from "node:test";
import assert from "node:assert/strict";
import { clientSizeScenario } from "../../scripts/bench/scenario_client_size.ts";

it("keeps the client + store under 6 KB and each binding under 2 KB beyond it", {
  timeout: 120_000,
}, async () => {
  const rows = await clientSizeScenario.run(
    {
      runtimes: { deno: "", node: "", bun: "" },
      quick: true,
      log: () => {},
    } as unknown as Parameters<typeof clientSizeScenario.run>[0],
  );
  assert.deepEqual(rows.map((row) => row.name), [
    "client + store, minified and gzipped",
    "./react beyond client + store",
    "./vue beyond client + store",
    "./svelte beyond client + store",
    "./solid beyond client + store",
  ]);
  for (const row of rows) {
    assert.equal(row.pass, true, `${row.name}: ${row.ours} bytes`);
    // A binding that bundled its framework would weigh kilobytes: each adds a few hundred bytes.
    assert.ok(row.ours > 50, `${row.name}: ${row.ours} bytes`);
  }
});
