/**
 * The example on Bun: `bun src/runtimes/bun.ts`, or bundled into one file
 * first. `PORT` (default 8080) and `HOST` (default 127.0.0.1) set the address;
 * port 0 takes a free one. The first line printed is the address.
 */
import { createExampleFetchHandler } from "../fetch-handler.js";

/** What this file uses of Bun's API (no @types/bun in this repository). */
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response>;
  }): { readonly hostname: string; readonly port: number };
};

const handle = createExampleFetchHandler();
const server = Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 8080),
  fetch: (request, bun) => {
    const remoteAddress = bun.requestIP(request)?.address;
    return handle(request, remoteAddress !== undefined ? { remoteAddress } : {});
  },
});
console.log(`Weather service on Bun: http://${server.hostname}:${server.port} (SimpleWeather under /simple)`);
