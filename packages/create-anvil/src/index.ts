/**
 * `create-anvil`: what `npm create anvil <dir>` runs. It is `anvil init`
 * (from `@anvil/codegen`) under the name npm's initializers take, so that a
 * new service starts with plain npm and nothing installed beforehand.
 *
 * @packageDocumentation
 */
import { initCommand, parseArgs, type Io } from "@anvil/codegen";

/** How to call it, printed for `--help` and for a call without a folder. */
export const USAGE = `usage: npm create anvil@latest <dir> [-- --name <Service>] [--force]

Writes a new service project into <dir>: a Smithy model, anvil.config.json,
handlers, a server answering restJson1, awsJson1_1 and rpcv2Cbor, and tests
with the generated client. Then: cd <dir> && npm install && npm start.

  --name <Service>   the service's shape name (default: <dir> in PascalCase)
  --force            write into a folder that is not empty`;

/**
 * Runs the initializer with npm's arguments (everything after `npm create
 * anvil`); returns the exit code: 0 when the project was written, 2 on a
 * usage error or a folder it will not write into.
 */
export function createAnvil(argv: readonly string[], io: Io): number {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out(USAGE);
    return 0;
  }
  if (!argv.some((a, i) => !a.startsWith("-") && argv[i - 1] !== "--name")) {
    io.err(`error: no folder given\n${USAGE}`);
    return 2;
  }
  return initCommand(parseArgs(["init", ...argv]), io);
}
