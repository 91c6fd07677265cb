/**
 * esbuild bundles of the browser client for the bindings' browser tests and the size row of
 * `deno task bench`, and of the React example (`deno task react:build`): one ES module for browsers, `npm:name@range` specifiers (how the bindings
 * import their framework) resolved as the bare `name` from node_modules, and `.svelte` files
 * compiled with `svelte/compiler`. Runs on Deno, Node and Bun (esbuild's npm package).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import process from "node:process";
import * as esbuild from "esbuild";

/** What to bundle: an entry file, or source text resolved from `resolveDir`. */
export interface BundleOptions {
  entry?: string;
  source?: string;
  resolveDir?: string;
  minify?: boolean;
  /** Packages left out of the bundle (a framework, when only what is added on top counts). */
  external?: string[];
}

/** Makes `npm:name@range` the bare `name`, resolved as any other import. */
const npmSpecifiers: esbuild.Plugin = {
  name: "npm-specifiers",
  setup(build) {
    build.onResolve({ filter: /^npm:/ }, (args) => {
      const bare = /^npm:(@?[^@]+)(?:@[^/]*)?(\/.*)?$/.exec(args.path);
      if (!bare) return undefined;
      return build.resolve(bare[1] + (bare[2] ?? ""), {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
      });
    });
  },
};

/** Compiles `.svelte` components for the browser. */
const svelteFiles: esbuild.Plugin = {
  name: "svelte",
  setup(build) {
    build.onLoad({ filter: /\.svelte$/ }, async (args) => {
      const { compile } = await import("svelte/compiler");
      const { js } = compile(readFileSync(args.path, "utf8"), {
        filename: args.path,
        generate: "client",
      });
      return { contents: js.code, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/** Bundles for browsers and answers the JavaScript text. */
export async function bundleForBrowser(options: BundleOptions): Promise<string> {
  const result = await esbuild.build({
    ...(options.entry ? { entryPoints: [resolve(options.entry)] } : {
      stdin: {
        contents: options.source ?? "",
        resolveDir: options.resolveDir ?? process.cwd(),
        loader: "ts",
      },
    }),
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: options.minify ?? false,
    // .tsx files (the React example) use React's automatic runtime, as deno.dev.json says.
    jsx: "automatic",
    external: options.external ?? [],
    define: {
      "process.env.NODE_ENV": '"production"',
      __VUE_OPTIONS_API__: "false",
      __VUE_PROD_DEVTOOLS__: "false",
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
    },
    plugins: [npmSpecifiers, svelteFiles],
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** Stops esbuild's service (so that a script or test file can exit). */
export function stopBundler(): Promise<void> {
  return esbuild.stop();
}
