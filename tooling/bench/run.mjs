#!/usr/bin/env node
// Anvil benchmarks. Every figure is reported next to a baseline measured in
// the same run, on the same input, so results compare across machines.
//
//   pnpm bench                 all benchmarks
//   pnpm bench model           only the model loader
import { parseArgs } from "node:util";
import { runModelBench } from "./model-bench.mjs";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { quick: { type: "boolean" } } });
const only = new Set(positionals);
const want = (name) => only.size === 0 || only.has(name);

if (want("model")) await runModelBench({ quick: values.quick ?? false });
