#!/usr/bin/env node
import { parseArgs } from "./args.js";
import { astCommand, generateCommand, initCommand, protoCommand, USAGE, validateCommand, type Io } from "./commands.js";

/** Runs the CLI with the given arguments; returns the exit code. */
export function main(argv: readonly string[], io: Io): number {
  const args = parseArgs(argv);
  if (args.flags.has("--help") || args.flags.has("-h") || args.command === "help" || args.command === undefined) {
    io.out(USAGE);
    return args.command === undefined && !args.flags.has("--help") && !args.flags.has("-h") ? 2 : 0;
  }
  if (args.errors.length) {
    for (const e of args.errors) io.err(`error: ${e}`);
    return 2;
  }
  switch (args.command) {
    case "validate":
      return validateCommand(args, io);
    case "ast":
      return astCommand(args, io);
    case "generate":
      return generateCommand(args, io);
    case "init":
      return initCommand(args, io);
    case "proto":
      return protoCommand(args, io);
    default:
      io.err(`error: unknown command \`${args.command}\`\n\n${USAGE}`);
      return 2;
  }
}

let progressShown = false;
process.exitCode = main(process.argv.slice(2), {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  // Progress only on a terminal: logs and pipes get the final lines alone.
  ...(process.stderr.isTTY
    ? {
        progress: (t: string | undefined) => {
          if (t === undefined && !progressShown) return;
          process.stderr.write(`\r\x1b[K${t ?? ""}`);
          progressShown = t !== undefined;
        },
      }
    : {}),
});
