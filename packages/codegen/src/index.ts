/**
 * `@anvil/codegen`: the `anvil` command-line tool. Today it validates models and
 * prints their JSON AST; code generation lands in later releases.
 *
 * @packageDocumentation
 */
export { parseArgs } from "./args.js";
export type { ParsedArgs } from "./args.js";
export { astCommand, formatDiagnostic, formatSnippet, SourceLines, summarize, USAGE, validateCommand } from "./commands.js";
export type { Io } from "./commands.js";
