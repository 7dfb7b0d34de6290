/**
 * The example on Cloudflare Workers (and any host that serves a module's
 * default `fetch`: `deno serve`, `bun run`). Bundle it into one file with
 * any bundler (`esbuild --bundle --format=esm --platform=neutral
 * --main-fields=module,main`; wrangler does it too) and give the Worker the
 * `enable_request_signal` compatibility flag, so that a handler learns when
 * its client goes away:
 *
 * ```toml
 * # wrangler.toml
 * main = "src/runtimes/worker.ts"
 * compatibility_date = "2026-07-30"
 * compatibility_flags = ["enable_request_signal"]
 * ```
 *
 * The store is in memory, so each isolate has its own: a real service would
 * keep its data in a database (D1, KV, a Durable Object).
 */
import type { FetchHandler } from "@anvil/server";
import { createExampleFetchHandler } from "../fetch-handler.js";

let handle: FetchHandler | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    // Made on the first request rather than when the module loads, where Workers allow no timers, random numbers or I/O.
    handle ??= createExampleFetchHandler();
    return handle(request);
  },
};
