/**
 * Minimal client transports for the contract: a client protocol's
 * `HttpRequest` sent over a real socket, the answer read back as an
 * `HttpResponse` with the whole body. One over `fetch` (HTTP/1.1), one over
 * a `node:http2` session (h2c), and, to compare with them, one with no
 * socket at all (`@anvil/server`'s in-memory transport).
 */
import type * as http2 from "node:http2";
import type { HttpRequest, HttpResponse } from "@anvil/core";
import { readBody } from "@anvil/core/protocol";
import { createInMemoryTransport, type InMemoryTransportOptions, type Server } from "@anvil/server";

/** Sends one request and reads the whole answer. */
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** `/path?name=value&...`, query percent-encoded. */
function target(request: HttpRequest): string {
  if (request.query.length === 0) return request.path;
  return `${request.path}?${request.query.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("&")}`;
}

/** HTTP/1.1 with the platform `fetch`. */
export function fetchTransport(baseUrl: string): Transport {
  return async (request) => {
    const body = request.body === undefined ? undefined : await readBody(request.body);
    const response = await fetch(`${baseUrl}${target(request)}`, {
      method: request.method,
      headers: request.headers,
      ...(body !== undefined ? { body: body as Uint8Array<ArrayBuffer> } : {}),
    });
    return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
  };
}

/** HTTP/2 over one session (cleartext with prior knowledge, or TLS). */
export function http2Transport(session: http2.ClientHttp2Session): Transport {
  return async (request) => {
    const body = request.body === undefined ? undefined : await readBody(request.body);
    const outgoing: http2.OutgoingHttpHeaders = { ":method": request.method, ":path": target(request) };
    request.headers.forEach((value, name) => {
      if (name !== "host" && name !== "connection") outgoing[name] = value;
    });
    const stream = session.request(outgoing);
    const chunks: Buffer[] = [];
    const [status, headers] = await new Promise<[number, Headers]>((resolve, reject) => {
      let answer: [number, Headers] = [0, new Headers()];
      stream.on("response", (incoming) => {
        const h = new Headers();
        for (const [name, value] of Object.entries(incoming)) {
          if (name.startsWith(":") || value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [String(value)]) h.append(name, v);
        }
        answer = [Number(incoming[":status"]), h];
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => resolve(answer));
      stream.on("error", reject);
      stream.end(body);
    });
    return { status, headers, body: new Uint8Array(Buffer.concat(chunks)) };
  };
}

/** The endpoint of calls over {@link inMemoryTransport}: it shapes the requests; nothing connects to it. */
export const IN_MEMORY_URL = "http://in-memory.test";

/**
 * In process, with no socket: the request handed to the server as the
 * client wrote it (a stream stays a stream), the answer read whole as the
 * socket transports read it.
 */
export function inMemoryTransport(server: Server<any, any>, options: Partial<InMemoryTransportOptions> = {}): Transport {
  const transport = createInMemoryTransport(server, options);
  return async (request) => {
    const response = await transport.send({
      method: request.method,
      url: new URL(`${IN_MEMORY_URL}${target(request)}`),
      headers: request.headers,
      body: request.body,
      ...(request.trailers !== undefined ? { trailers: request.trailers } : {}),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: await readBody(response.body),
      ...(response.trailers !== undefined ? { trailers: response.trailers } : {}),
    };
  };
}
