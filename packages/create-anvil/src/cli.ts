#!/usr/bin/env node
import { createAnvil } from "./index.js";

process.exitCode = createAnvil(process.argv.slice(2), {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
