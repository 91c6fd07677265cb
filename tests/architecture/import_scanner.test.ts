// The scanner behind import_rule.test.ts, on small sources: it must see every kind of import the
// rule judges (so the rule cannot pass by seeing nothing) and nothing in comments or strings.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { maskSource, scanImports } from "./import_scanner.ts";
import { edgesOf, findCycle, mentions, violations } from "./source_graph.ts";

const specifiers = (source: string) => scanImports(source).map((ref) => ref.specifier);

describe("scanImports", () => {
  it("finds a static import, its line and that it is not type-only", () => {
    assert.deepEqual(scanImports(`const a = 1;\nimport { x } from "../core/mod.ts";\n`), [
      { specifier: "../core/mod.ts", typeOnly: false, dynamic: false, line: 2 },
    ]);
  });

  it("finds a multi-line import once, at the line of its keyword", () => {
    const source = `import {\n  a,\n  type B,\n  c as d,\n} from "../sql/mod.ts";\n`;
    assert.deepEqual(scanImports(source), [
      { specifier: "../sql/mod.ts", typeOnly: false, dynamic: false, line: 1 },
    ]);
  });

  it("finds a dynamic import, and `typeof import()` as a type", () => {
    const source = `const m = await import("../auth/mod.ts");\n` +
      `type T = typeof import( './run.ts' );\n`;
    assert.deepEqual(scanImports(source), [
      { specifier: "../auth/mod.ts", typeOnly: false, dynamic: true, line: 1 },
      { specifier: "./run.ts", typeOnly: true, dynamic: true, line: 2 },
    ]);
  });

  it("finds every form of import and re-export", () => {
    const source = [
      `import D from "./default.ts";`,
      `import D2, { e } from "./mixed.ts";`,
      `import * as ns from "./namespace.ts";`,
      `import "./side_effect.ts";`,
      `import data from "../../generated/data.json" with { type: "json" };`,
      `export * from "./star.ts";`,
      `export * as star from "./star_as.ts";`,
      `export { f, g as h } from './named.ts';`,
      `export type { T } from "./type_export.ts";`,
      `import type { U } from "./type_import.ts";`,
      `import { type V } from "./inline_type.ts";`,
    ].join("\n");
    assert.deepEqual(
      scanImports(source).map((r) => [r.specifier, r.typeOnly]),
      [
        ["./default.ts", false],
        ["./mixed.ts", false],
        ["./namespace.ts", false],
        ["./side_effect.ts", false],
        ["../../generated/data.json", false],
        ["./star.ts", false],
        ["./star_as.ts", false],
        ["./named.ts", false],
        ["./type_export.ts", true],
        ["./type_import.ts", true],
        // Kept at run time (an empty import under verbatimModuleSyntax): not type-only.
        ["./inline_type.ts", false],
      ],
    );
  });

  it("ignores imports in comments, strings and templates", () => {
    const source = [
      `// import a from "./line_comment.ts";`,
      `/* import("./block_comment.ts") */`,
      `/**`,
      ` * @example`,
      ` * import { b } from "./jsdoc.ts";`,
      `import { c } from "./jsdoc_line_without_star.ts";`,
      ` */`,
      `const s = 'import d from "./single.ts"';`,
      `const t = "export * from './double.ts'";`,
      'const u = `import { e } from "./template.ts";`;',
      `const v = Array.from("./array_from.ts"), w = x.import("./method.ts");`,
      "const dyn = await import(`./${name}.ts`);",
    ].join("\n");
    assert.deepEqual(specifiers(source), []);
  });

  it("reads an import inside a template expression, and past a regex holding a quote", () => {
    const source = [
      'const sql = `SELECT ${(await import("./inside_template.ts")).x} FROM t`;',
      `const quote = /"/g, half = a / 2; // import z from "./no.ts"`,
      `const slashes = /\\/\\/[^"]*/;`,
      `import y from "./after_regex.ts";`,
    ].join("\n");
    assert.deepEqual(specifiers(source), ["./inside_template.ts", "./after_regex.ts"]);
  });
});

describe("maskSource", () => {
  it("keeps offsets and newlines, blanks comments, keeps strings where asked", () => {
    const source = `Deno.exit(); // Deno.env\n/* Deno.cwd() */ const s = "Deno.args";\n`;
    const { withoutComments, codeOnly } = maskSource(source);
    assert.equal(withoutComments.length, source.length);
    assert.equal(codeOnly.length, source.length);
    assert.equal(withoutComments.split("\n").length, source.split("\n").length);
    assert.deepEqual(mentions([{ path: "f.ts", withoutComments }], /Deno\./), [
      `f.ts:1: Deno.exit();`,
      `f.ts:2: const s = "Deno.args";`,
    ]);
    assert.equal(codeOnly.includes("args"), false);
  });
});

describe("the rule's checks on a made-up tree", () => {
  const tree = [
    { path: "src/sql/adapter.ts", imports: scanImports(`import { x } from "../core/mod.ts";`) },
    {
      path: "src/core/mod.ts",
      imports: scanImports(`import {\n  a,\n} from "../sql/mod.ts";\nimport "./route.ts";`),
    },
    { path: "src/client/mod.ts", imports: scanImports(`const m = import("../auth/mod.ts");`) },
    { path: "mod.ts", imports: scanImports(`export * from "./src/core/mod.ts";`) },
  ];
  const edges = edgesOf(tree);
  const allowed = { core: ["sql"], client: ["auth"], sql: [], root: ["core"] };

  it("resolves imports to repository paths and folders", () => {
    assert.deepEqual(
      edges.map((e) => `${e.from} ${e.fromFolder} → ${e.to} ${e.toFolder}`),
      [
        "src/sql/adapter.ts sql → src/core/mod.ts core",
        "src/core/mod.ts core → src/sql/mod.ts sql",
        "src/core/mod.ts core → src/core/route.ts core",
        "src/client/mod.ts client → src/auth/mod.ts auth",
        "mod.ts root → src/core/mod.ts core",
      ],
    );
  });

  it("reports a forbidden import with its file, line and folders", () => {
    assert.deepEqual(violations(edges, allowed), [
      "src/sql/adapter.ts:1 → src/core/mod.ts (sql may not import core)",
    ]);
  });

  it("finds the cycle between folders, and none once it is broken", () => {
    assert.deepEqual(findCycle(edges), ["core", "sql", "core"]);
    assert.equal(findCycle(edges.slice(1)), undefined);
  });

  it("sees the client's dynamic import of auth as a run-time one", () => {
    const clientToAuth = edges.filter((e) => e.fromFolder === "client");
    assert.deepEqual(clientToAuth.map((e) => e.typeOnly), [false]);
  });
});
