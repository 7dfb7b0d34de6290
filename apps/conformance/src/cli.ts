#!/usr/bin/env node
/**
 * `anvil-conformance`: runs the Smithy and alloy conformance suites against
 * Anvil. See the README of this package.
 */
import { SUITES } from "./registry.js";
import { runCli } from "./run-cli.js";

process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  suites: SUITES,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
