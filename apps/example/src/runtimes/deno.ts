/**
 * The example on Deno: `deno run --allow-net --allow-env=PORT,HOST
 * src/runtimes/deno.ts`, or bundled into one file first. `PORT` (default
 * 8080) and `HOST` (default 127.0.0.1) set the address; port 0 takes a free
 * one. The first line printed is the address.
 *
 * The handler never reads `request.signal`, which Deno 2 aborts after every
 * successful answer too (warning once); streamed answers still stop when the
 * client goes away. With `--unstable-no-legacy-abort`, pass
 * `{ requestSignal: true }` to `createExampleFetchHandler` for handlers to
 * learn it while they work on an answer too.
 */
import { createExampleFetchHandler } from "../fetch-handler.js";

/** What this file uses of Deno's API (no Deno types in this repository). */
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { hostname: string; port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
};

const handle = createExampleFetchHandler();
Deno.serve(
  {
    hostname: Deno.env.get("HOST") ?? "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 8080),
    onListen: ({ hostname, port }) => console.log(`Weather service on Deno: http://${hostname}:${port} (SimpleWeather under /simple)`),
  },
  (request, info) => handle(request, { remoteAddress: info.remoteAddr.hostname }),
);
