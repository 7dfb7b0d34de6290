/**
 * The gRPC client's edges: transports it refuses, answers that are not gRPC
 * (mapped by the HTTP-to-status table), and gRPC over TLS on a port that
 * also answers HTTP/1.1 (ALPN).
 */
import * as http2 from "node:http2";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { createClient, fetchTransport } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { UnmodeledError } from "@anvil/core";
import { createServer } from "@anvil/server";
import { listen } from "@anvil/server/node";
import { describe, expect, it } from "vitest";
import { hasOpenssl, selfSignedCertificate } from "@anvil/test-support";
import { frameMessage } from "./frames.js";
import { grpc } from "./index.js";
import { greeterHandlers } from "./test-handlers.js";
import { Greeter } from "./test-service.js";

describe("grpc client: transports", () => {
  it("refuses an HTTP/1.1 transport, or one that does not say, with a clear error", () => {
    expect(() => createClient(Greeter, { endpoint: "http://127.0.0.1:1", protocols: [grpc()], transport: fetchTransport() })).toThrow(
      /alloy.proto#grpc needs HTTP\/2, but the transport given speaks HTTP\/1.1; use http2Transport\(\)/,
    );
    expect(() =>
      createClient(Greeter, { endpoint: "http://127.0.0.1:1", protocols: [grpc()], transport: { send: () => Promise.reject(new Error("no")) } }),
    ).toThrow(/undeclared HTTP version/);
  });
});

describe("grpc server: shutting down", () => {
  it("ends a stream still going with UNAVAILABLE once the grace period is over", async () => {
    const server = createServer(Greeter, { protocols: [grpc()] })
      .register(greeterHandlers({ aborted: [] }) as never)
      .mapService();
    const listener = await listen(server, { http2: true });
    const transport = http2Transport();
    try {
      const client = createClient(Greeter, { endpoint: listener.url, protocols: [grpc()], transport, retry: { maxAttempts: 1 } });
      const out = await client.countdown({ from: 1000 });
      const iterator = out.ticks![Symbol.asyncIterator]();
      expect((await iterator.next()).value).toEqual({ $case: "tick", value: { n: 1000 } });
      // The server's own close: it aborts the calls after the grace period (the listener would then also cut the connections).
      const closed = server.close({ graceMs: 50 });
      const error = (await iterator.next().catch((e: unknown) => e)) as UnmodeledError;
      expect([UnmodeledError.is(error), error.code]).toEqual([true, "UNAVAILABLE"]);
      await closed;
    } finally {
      await transport.close();
      await listener.close({ graceMs: 10 });
    }
  });
});

describe("E4: grpc client: answers that are not gRPC", () => {
  it.each([
    [404, "text/html", "UNIMPLEMENTED"],
    [429, "text/plain", "UNAVAILABLE"],
    [431, "text/plain", "INTERNAL"],
    [503, "text/html", "UNAVAILABLE"],
    [502, "text/html", "UNAVAILABLE"],
    [401, "application/json", "UNAUTHENTICATED"],
    [403, "text/html", "PERMISSION_DENIED"],
    [400, "text/plain", "INTERNAL"],
    [500, "text/html", "UNKNOWN"],
    [200, "text/html", "UNKNOWN"],
  ])("HTTP %i (%s) fails with %s, keeping an excerpt of the body", async (status, type, code) => {
    const server = http2.createServer((req, res) => {
      req.resume();
      res.writeHead(status, { "content-type": type });
      res.end("<html><body>proxy error</body></html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const transport = http2Transport();
    try {
      const client = createClient(Greeter, {
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        protocols: [grpc()],
        transport,
        retry: { maxAttempts: 1 },
      });
      const error = await client.sayHello({ name: "ada" }).catch((e: unknown) => e);
      expect(UnmodeledError.is(error)).toBe(true);
      expect((error as UnmodeledError).code).toBe(code);
      expect((error as UnmodeledError).bodyExcerpt).toContain("proxy error");
    } finally {
      await transport.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    ["trailers without grpc-status", true],
    ["no trailers at all", false],
  ])("a gRPC answer (200, application/grpc) with a message and %s fails INTERNAL, never OK", async (_name, trailers) => {
    const server = http2.createServer();
    server.on("stream", (stream) => {
      stream.resume();
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: trailers });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-message": "error" }));
      // SayHello's output, { message: "hi" }.
      stream.end(frameMessage(new Uint8Array([0x0a, 0x02, 0x68, 0x69])));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const transport = http2Transport();
    try {
      const client = createClient(Greeter, {
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        protocols: [grpc()],
        transport,
        retry: { maxAttempts: 1 },
      });
      const error = await client.sayHello({ name: "ada" }).catch((e: unknown) => e);
      expect([UnmodeledError.is(error), (error as UnmodeledError).code]).toEqual([true, "INTERNAL"]);
    } finally {
      await transport.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.skipIf(!hasOpenssl)("grpc over TLS", () => {
  it("serves gRPC (h2 by ALPN) on a port that answers HTTP/1.1 too", async () => {
    const { key, cert } = selfSignedCertificate();
    const server = createServer(Greeter, { protocols: [grpc()] })
      .register(greeterHandlers({ aborted: [] }) as never)
      .mapService();
    const listener = await listen(server, { tls: { key, cert } });
    const transport = http2Transport({ connect: { ca: cert } });
    try {
      const client = createClient(Greeter, { endpoint: listener.url, protocols: [grpc()], transport });
      expect((await client.sayHello({ name: "tls" })).message).toBe("hello tls");
      // The same port, HTTP/1.1 by ALPN: a non-gRPC request is answered (here: no such route).
      const status = await new Promise<number>((resolve, reject) => {
        const req = https.request(`${listener.url}/nothing`, { ca: cert, ALPNProtocols: ["http/1.1"] } as https.RequestOptions, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on("error", reject);
        req.end();
      });
      expect(status).toBe(404);
    } finally {
      await transport.close();
      await listener.close({ graceMs: 50 });
    }
  });
});
