// The typed client runs in browsers: what it imports at run time (its `code` dependencies in
// `deno info --json`; type-only imports are erased) must be its own files: no `node:` built-in, no
// npm package (zod, hono, postgres, PGlite), no service, store or driver, not even the operation
// declarations (their zod schemas would weigh ~800 KB in a browser bundle): the methods and paths
// come from the generated generated/client_routes.ts. createModuleClient needs not even that.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import process from "node:process";
import { it } from "node:test";
import { RUNTIME } from "../helpers/spawn_runtime.ts";

interface InfoModule {
  specifier: string;
  dependencies?: { specifier: string; code?: { specifier: string } }[];
}

/** The specifiers `entry` reaches through run-time imports, `entry` included. */
function runtimeGraph(entry: string): string[] {
  const [command, prefix] = RUNTIME === "deno" ? [process.execPath, []] : ["npx", ["-y", "deno@2"]];
  const info = JSON.parse(
    execFileSync(command, [...prefix, "info", "--json", entry], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", npm_config_loglevel: "error" },
    }),
  ) as { roots: string[]; modules: InfoModule[] };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const pending = [...info.roots];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dependency.code) pending.push(dependency.code.specifier);
    }
  }
  return [...seen].sort();
}

it("src/client/mod.ts imports only its own files and its route table at run time", () => {
  const graph = runtimeGraph("src/client/mod.ts");
  const foreign = graph.filter((specifier) =>
    !/\/src\/client\/[a-z_]+\.ts$/.test(specifier) &&
    !specifier.endsWith("/generated/client_routes.ts")
  );
  assert.deepEqual(foreign, [], "no node:, npm: or server module, not even the declarations");
  assert.ok(graph.some((s) => s.endsWith("/src/client/transport.ts")), "the walk found the graph");
  assert.ok(
    graph.some((s) => s.endsWith("/generated/client_routes.ts")),
    "paths come from there",
  );
});

it("src/client/module_client.ts imports only client files: no route table, no schema", () => {
  // createModuleClient takes each call's method and path from its route key, and its types from
  // the module with `import type`: a bundle of it holds nothing of the module it calls.
  const graph = runtimeGraph("src/client/module_client.ts");
  const foreign = graph.filter((specifier) => !/\/src\/client\/[a-z_]+\.ts$/.test(specifier));
  assert.deepEqual(foreign, [], "no node:, npm:, generated or server module");
  assert.ok(graph.some((s) => s.endsWith("/src/client/transport.ts")), "the walk found the graph");
  assert.ok(graph.some((s) => s.endsWith("/src/client/route_path.ts")));
});

it("the walk sees a run-time npm import where there is one", () => {
  // The check above could pass vacuously if `deno info` stopped listing code dependencies.
  const graph = runtimeGraph("src/auth/mod.ts");
  assert.ok(graph.some((s) => s.startsWith("npm:")), graph.join("\n"));
});
