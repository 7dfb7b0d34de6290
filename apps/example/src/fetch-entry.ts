/**
 * The example's fetch handler as a module's default export, `{ fetch }`: the
 * shape Cloudflare Workers, `deno serve` and `bun run` serve. It is the
 * Workers entry, `runtimes/worker.ts` (see there for the bundling command
 * and the compatibility flag).
 */
export { default } from "./runtimes/worker.js";
