/** Column alignment. */
export type Align = "left" | "right";

/** A column: header text and alignment. */
export interface Column {
  readonly header: string;
  readonly align: Align;
}

/**
 * Formats rows as a plain-text table: a header, a rule, the rows, and an
 * optional footer row under a second rule. Columns are separated by two spaces.
 */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[], footer?: readonly string[]): string {
  const all = [columns.map((c) => c.header), ...rows, ...(footer ? [footer] : [])];
  const widths = columns.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    columns
      .map((c, i) => {
        const cell = cells[i] ?? "";
        return c.align === "right" ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  const out = [line(columns.map((c) => c.header)), rule, ...rows.map(line)];
  if (footer) out.push(rule, line(footer));
  return out.join("\n");
}
