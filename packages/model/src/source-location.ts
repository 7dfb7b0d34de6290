/** Where something was written: a file path and a 1-based line and column. */
export interface SourceLocation {
  /** Path of the model file as loaded, or the name of an in-memory source; empty when there is no file. */
  readonly file: string;
  /** 1-based line; 0 when the location is a whole file. */
  readonly line: number;
  /** 1-based column, in UTF-16 code units; 0 when the location is a whole file. */
  readonly column: number;
}

/** The location used for things that come from no file (synthesized shapes). */
export const NO_LOCATION: SourceLocation = Object.freeze({ file: "", line: 0, column: 0 });

/** Formats a location the way compilers do: `file:line:column`. */
export function formatLocation(loc: SourceLocation): string {
  if (!loc.file) return "<unknown>";
  return loc.line > 0 ? `${loc.file}:${loc.line}:${loc.column}` : loc.file;
}
