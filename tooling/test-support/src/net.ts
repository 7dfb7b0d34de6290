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

/** Closes `server`; resolves when it has closed (errors, e.g. not running, are ignored). */
export function closeServer(server: { close(callback: () => void): unknown }): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port free on 127.0.0.1 at the time of the call, for a process the test spawns. */
export async function freePort(): Promise<number> {
  const server: Server = createServer();
  const port = await listenLoopback(server);
  await closeServer(server);
  return port;
}
