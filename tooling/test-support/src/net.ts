/** Servers on loopback: listening on a free port, closing, and finding a free port. */
import { createServer, type AddressInfo, type Server } from "node:net";

/** Anything that listens like a `node:net` server (http, https, http2 servers included). */
export interface Listenable {
  listen(port: number, host: string, callback: () => void): unknown;
  address(): AddressInfo | string | null;
  once(event: "error", listener: (error: Error) => void): unknown;
}

/** Starts `server` on 127.0.0.1 on a free port; resolves with the port. */
export function listenLoopback(server: Listenable): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Closes `server` and the connections still open to it (a browser's
 * keep-alive ones would hold `close` otherwise); resolves when it has
 * closed (errors, e.g. not running, are ignored).
 */
export function closeServer(server: { close(callback: () => void): unknown; closeAllConnections?: () => void }): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections?.();
  return closed;
}

/** A port free on 127.0.0.1 at the time of the call, for a process the test spawns. */
export async function freePort(): Promise<number> {
  const server: Server = createServer();
  const port = await listenLoopback(server);
  await closeServer(server);
  return port;
}
