/**
 * examples/react/app.js is the bundle of examples/react/ that `deno task react:build` makes: the
 * page served at `/react/` runs the example and the client as their sources say, not an older
 * copy. Deno only (scripts/test.ts): one runtime is enough to compare the bytes.
 */
import { after, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { stopBundler } from "../../scripts/browser_bundle.ts";
import { bundleReactExample, REACT_EXAMPLE_BUNDLE } from "../../scripts/build_react_example.ts";

after(() => stopBundler());

it(
  "examples/react/app.js is up to date (run deno task react:build)",
  { timeout: 120_000 },
  async () => {
    const committed = readFileSync(REACT_EXAMPLE_BUNDLE, "utf8");
    assert.ok(
      committed === await bundleReactExample(),
      "examples/react/app.js is out of date: run `deno task react:build` and commit the result",
    );
  },
);
