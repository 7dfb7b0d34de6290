/** Where something was written: a file path and a 1-based line and column. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** The location used for things that come from no file (synthesized shapes). */
export const NO_LOCATION: SourceLocation = Object.freeze({ file: "", line: 0, column: 0 });

/** Formats a location the way compilers do: `file:line:column`. */
export function formatLocation(loc: SourceLocation): string {
  if (!loc.file) return "<unknown>";
  return loc.line > 0 ? `${loc.file}:${loc.line}:${loc.column}` : loc.file;
}
