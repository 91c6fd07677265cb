/**
 * Scenario 12: what the browser client weighs. esbuild bundles (minified, for browsers) gzipped
 * with `CompressionStream`: the whole client (`./client`: the auth client and createModuleClient)
 * with the store (`./client/store`, nanostores included), and what each framework binding adds on
 * top of it (the framework itself left out: the app bundles it anyway). Bytes do not depend on the
 * machine's load, so the smoke run measures the same.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { bundleForBrowser, stopBundler } from "../browser_bundle.ts";
import { type BenchRow, benchRow } from "./report.ts";
import type { Scenario } from "./scenario.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLIENT = `export * from "./src/client/mod.ts";\nexport * from "./src/client/store/mod.ts";\n`;
const BINDINGS = [
  { name: "react", external: ["react"] },
  { name: "vue", external: ["vue"] },
  { name: "svelte", external: ["svelte"] },
  { name: "solid", external: ["solid-js"] },
];

/** Bytes of `source` bundled, minified and gzipped. */
async function gzippedSize(source: string, external: string[] = []): Promise<number> {
  const code = await bundleForBrowser({ source, resolveDir: ROOT, minify: true, external });
  const gzipped = new Blob([code]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(gzipped).arrayBuffer()).byteLength;
}

export const clientSizeScenario: Scenario = {
  number: 12,
  title: "browser client size",
  async run(): Promise<BenchRow[]> {
    try {
      const base = await gzippedSize(CLIENT);
      const rows = [benchRow({
        scenario: 12,
        name: "client + store, minified and gzipped",
        unit: "bytes",
        ours: base,
        reference: null,
        referenceName: "",
        target: { kind: "at-most", value: 6144 },
        note: "./client and ./client/store bundled whole (nanostores included) by esbuild",
      })];
      for (const binding of BINDINGS) {
        const size = await gzippedSize(
          `${CLIENT}export * from "./src/client/${binding.name}/mod.ts";\n`,
          binding.external,
        );
        rows.push(benchRow({
          scenario: 12,
          name: `./${binding.name} beyond client + store`,
          unit: "bytes",
          ours: size - base,
          reference: null,
          referenceName: "",
          target: { kind: "at-most", value: 2048 },
          note: `${binding.external[0]} itself left out (the app bundles it)`,
        }));
      }
      return rows;
    } finally {
      await stopBundler();
    }
  },
};
