/**
 * The transport of a client given none, where the platform is not Node:
 * `fetch` (browsers, Workers, Deno, Bun). The package's `#default-transport`
 * import resolves here everywhere but under the `node` condition (see
 * `default-transport-node.ts`).
 */
import { fetchTransport } from "./fetch-transport.js";
import type { Transport } from "./transport.js";

let shared: Transport | undefined;

/** The transport of every client made without one: the platform's `fetch`. */
export function defaultTransport(): Transport {
  return (shared ??= fetchTransport());
}
