import { describe, expect, it } from "vitest";
import { type AccessLogEntry, createServer, fetchHandler, formatAccessLog } from "./index.js";
import { closeOnSignal, listen } from "./node.js";
import { testProtocol } from "./test-protocol.js";
import { TestService } from "./test-service.js";

function make(options: { accessLog?: (entry: AccessLogEntry) => void; health?: boolean | { liveness?: string; readiness?: string } } = {}) {
  let release: (() => void) | undefined;
  const server = createServer(TestService, {
    protocols: [testProtocol("test#json")],
    onInternalError: () => {},
    ...options,
  })
    .register({
      echo: (input: { name: string; text?: string }) => ({ message: `${input.name}:${input.text ?? ""}` }),
      fail: () => {
        throw new Error("boom");
      },
      download: () => ({}),
      upload: () => ({}),
      wait: () => new Promise<Record<string, never>>((resolve) => (release = () => resolve({}))),
    })
    .mapService();
  // `started()`: the wait handler has run, so release() ends its call.
  return { server, started: () => release !== undefined, release: () => release?.() };
}

const request = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  new Request(`https://api.example.com${path}`, { method: "POST", body: "{}", ...init, headers: { "content-type": "application/json", ...init.headers } });

describe("the access log", () => {
  it("gives one entry per request: operation, protocol, status, duration, request id, sizes", async () => {
    const entries: AccessLogEntry[] = [];
    const { server } = make({ accessLog: (entry) => entries.push(entry) });
    const handle = fetchHandler(server);
    await (
      await handle(request("/echo/ann", { body: `{"text":"hi"}`, headers: { "x-request-id": "r-1", "content-length": "13" } }), {
        remoteAddress: "198.51.100.7",
      })
    ).text();
    await (await handle(request("/fail"))).text();
    await (await handle(request("/nowhere"))).text();
    expect(entries.map((e) => [e.operation, e.status])).toEqual([
      ["echo", 200],
      ["fail", 500],
      [undefined, 404],
    ]);
    const [ok] = entries;
    expect(ok).toMatchObject({
      service: "example.test#TestService",
      protocol: "test#json",
      method: "POST",
      path: "/echo/ann",
      requestId: "r-1",
      remoteAddress: "198.51.100.7",
      bytesIn: 13,
      bytesOut: Buffer.byteLength(JSON.stringify({ message: "ann:hi" })),
    });
    expect(ok!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(ok!.durationMs).toBeGreaterThanOrEqual(0);
    expect(entries[1]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(formatAccessLog(ok!)).toMatch(/^\S+ 198\.51\.100\.7 POST \/echo\/ann 200 [\d.]+ms TestService\.echo test#json id=r-1$/);
  });

  it("holds no body or header value (a JSON logger may take it as is)", async () => {
    const entries: AccessLogEntry[] = [];
    const { server } = make({ accessLog: (entry) => entries.push(entry) });
    await (await fetchHandler(server)(request("/echo/ann", { body: `{"text":"canary-secret"}`, headers: { authorization: "Bearer canary-token" } }))).text();
    expect(JSON.stringify(entries)).not.toMatch(/canary/);
  });

  it("a logger that throws changes nothing for the caller", async () => {
    const { server } = make({
      accessLog: () => {
        throw new Error("disk full");
      },
    });
    expect((await fetchHandler(server)(request("/echo/ann"))).status).toBe(200);
  });
});

describe("health endpoints", () => {
  it("answer liveness and readiness, and readiness turns 503 while the server drains", async () => {
    const { server, started, release } = make({ health: true });
    const handle = fetchHandler(server);
    const get = async (path: string) => {
      const response = await handle(new Request(`https://api.example.com${path}`));
      return [response.status, ((await response.json()) as { status: string }).status];
    };
    expect(await get("/healthz")).toEqual([200, "ok"]);
    expect(await get("/readyz")).toEqual([200, "ready"]);
    const waiting = handle(request("/wait"));
    // The call is in its handler before the server starts closing.
    await expect.poll(started).toBe(true);
    const closed = server.close({ graceMs: 5_000 });
    expect(await get("/readyz")).toEqual([503, "draining"]);
    expect(await get("/healthz")).toEqual([200, "ok"]);
    release();
    expect((await waiting).status).toBe(200);
    await closed;
  });

  it("take other paths, and are off by default", async () => {
    const custom = fetchHandler(make({ health: { liveness: "/live", readiness: "/ready" } }).server);
    expect((await custom(new Request("https://api.example.com/live"))).status).toBe(200);
    expect((await custom(new Request("https://api.example.com/ready"))).status).toBe(200);
    expect((await custom(new Request("https://api.example.com/ready", { method: "DELETE" }))).status).toBe(405);
    const plain = fetchHandler(make().server);
    expect((await plain(new Request("https://api.example.com/healthz"))).status).toBe(404);
  });
});

describe("closeOnSignal", () => {
  it("closes the listeners when the signal comes, letting calls in flight finish", async () => {
    const { server, started, release } = make({ health: true });
    const listener = await listen(server);
    let closed = false;
    const dispose = closeOnSignal(listener, { signals: ["SIGUSR2"], graceMs: 5_000, onClosed: () => (closed = true) });
    try {
      const waiting = fetch(`${listener.url}/wait`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
      // The call is in its handler before the signal comes (a fixed wait raced on a loaded machine).
      await expect.poll(started, { timeout: 5_000 }).toBe(true);
      process.emit("SIGUSR2", "SIGUSR2");
      await expect.poll(() => server.closing).toBe(true);
      expect(closed).toBe(false);
      release();
      expect((await waiting).status).toBe(200);
      await expect.poll(() => closed).toBe(true);
    } finally {
      dispose();
    }
  });
});
