/**
 * Rows of the benchmark table, their pass/fail rule, and the two renderings (text table, JSON).
 *
 * @module
 */

/** How a row passes. */
export type Target =
  /** ratio (ours / reference) ≥ value. */
  | { kind: "ratio-at-least"; value: number }
  /** ratio (ours / reference) ≤ value. */
  | { kind: "ratio-at-most"; value: number }
  /** ours ≤ value, and reference ≤ value when there is one. */
  | { kind: "at-most"; value: number }
  /** Reported only. */
  | { kind: "report" };

/** One line of the table. */
export interface BenchRow {
  /** Scenario number of the issue (1–7). */
  scenario: number;
  /** What is measured, e.g. `webhook ingest throughput`. */
  name: string;
  /** Unit of `ours` and `reference`, e.g. `req/s`, `ms`, `MiB`. */
  unit: string;
  ours: number;
  reference: number | null;
  /** What the reference side is (`bare Hono + postgres.js`, `1 organization`…). */
  referenceName: string;
  /** `ours / reference`, or null without a reference. */
  ratio: number | null;
  target: Target;
  /** true/false for a target, null for a reported-only row. */
  pass: boolean | null;
  /** Anything a reader needs to interpret the figure. */
  note?: string;
}

/** Builds a row and evaluates its target. */
export function benchRow(
  fields: Omit<BenchRow, "ratio" | "pass">,
): BenchRow {
  const ratio = fields.reference === null || fields.reference === 0
    ? null
    : fields.ours / fields.reference;
  return { ...fields, ratio, pass: passes(fields.target, fields.ours, fields.reference, ratio) };
}

function passes(
  target: Target,
  ours: number,
  reference: number | null,
  ratio: number | null,
): boolean | null {
  if (!Number.isFinite(ours)) return target.kind === "report" ? null : false;
  switch (target.kind) {
    case "report":
      return null;
    case "at-most":
      return ours <= target.value && (reference === null || reference <= target.value);
    case "ratio-at-least":
      return ratio !== null && ratio >= target.value;
    case "ratio-at-most":
      return ratio !== null && ratio <= target.value;
  }
}

/** The target in words, as printed in the table. */
export function describeTarget(target: Target, unit: string): string {
  switch (target.kind) {
    case "report":
      return "reported";
    case "at-most":
      return `≤ ${target.value} ${unit}`;
    case "ratio-at-least":
      return `ratio ≥ ${target.value}`;
    case "ratio-at-most":
      return `ratio ≤ ${target.value}`;
  }
}

/** Formats a figure with a precision that suits its size. */
export function formatFigure(value: number | null, unit: string): string {
  if (value === null) return "—";
  if (!Number.isFinite(value)) return "n/a";
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** The one table `deno task bench` prints (Markdown, so docs/benchmarks.md can hold it as is). */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = ["#", "scenario", "ours", "reference", "ratio", "target", "result"];
  const lines = rows.map((row) => [
    String(row.scenario),
    row.name,
    formatFigure(row.ours, row.unit),
    row.reference === null
      ? "—"
      : `${formatFigure(row.reference, row.unit)} (${row.referenceName})`,
    row.ratio === null ? "—" : row.ratio.toFixed(2),
    describeTarget(row.target, row.unit),
    row.pass === null ? "reported" : row.pass ? "pass" : "FAIL",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [
    render(header),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...lines.map(render),
  ].join("\n");
}

/** The notes of the rows that have one, as a list under the table. */
export function renderNotes(rows: readonly BenchRow[]): string {
  return rows.filter((row) => row.note)
    .map((row) => `- ${row.scenario} ${row.name}: ${row.note}`)
    .join("\n");
}
