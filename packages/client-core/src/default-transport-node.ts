/**
 * The transport of a client given none, on Node: one {@link nodeHttpTransport}
 * shared by every such client (a pool of keep-alive sockets per origin, as
 * `fetch`'s global dispatcher is), made by the first call that needs it.
 * The package's `#default-transport` import resolves here under the `node`
 * condition; Bun and Deno, which also answer to `node`, are sent to
 * `default-transport.ts` by their own conditions first, and keep `fetch`
 * here too should a bundler have chosen this file for them.
 */
import { fetchTransport } from "./fetch-transport.js";
import { nodeHttpTransport } from "./node-http-transport.js";
import type { Transport } from "./transport.js";

let shared: Transport | undefined;

/** The transport of every client made without one: `node:http` on Node, `fetch` on Bun and Deno. */
export function defaultTransport(): Transport {
  return (shared ??= isNode() ? nodeHttpTransport() : fetchTransport());
}

function isNode(): boolean {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process?.versions;
  return versions?.node !== undefined && versions.bun === undefined && versions.deno === undefined;
}
