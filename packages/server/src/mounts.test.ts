import * as http2 from "node:http2";
import { describe, expect, it } from "vitest";
import { fetchHandler } from "./index.js";
import { Mounts } from "./mounts.js";
import { listen } from "./node.js";
import { testServer } from "./test-service.js";

const echo = (tag: string) => async (request: Request) =>
  new Response(
    JSON.stringify({
      tag,
      url: request.url,
      method: request.method,
      body: request.body ? await request.text() : null,
      ...(request.headers.has("x-note") ? { note: request.headers.get("x-note") } : {}),
    }),
    {
      headers: { "content-type": "application/json", "x-mounted": tag },
    },
  );

describe("Mounts", () => {
  it.each([
    ["/docs", "docs"],
    ["/docs/", "docs"],
    ["/docs/a/b.html", "docs"],
    ["/docs/api", "api"],
    ["/docs/api/x", "api"],
    ["/docsx", undefined],
    ["/doc", undefined],
    ["/openapi.json", "json"],
    ["/openapi.jsonx", undefined],
    ["/", undefined],
    ["/docs?x=1", "docs"],
    ["/docs/api/x?y", "api"],
    ["/docsx?/docs", undefined],
    ["http://example.com/docs/api/x?y", "api"],
    ["http://example.com/openapi.jsonx", undefined],
  ])("%s is served by %s", (path, want) => {
    const mounts = new Mounts();
    mounts.add("/docs", echo("docs"));
    mounts.add("/docs/api", echo("api"));
    mounts.add("/openapi.json", echo("json"));
    const found = mounts.find(path);
    const tags = new Map([
      [mounts.find("/docs"), "docs"],
      [mounts.find("/docs/api"), "api"],
      [mounts.find("/openapi.json"), "json"],
    ]);
    expect(found === undefined ? undefined : tags.get(found)).toBe(want);
  });

  it.each(["docs", "/docs/", "/docs?x", ""])("refuses the prefix %j", (prefix) => {
    expect(() => new Mounts().add(prefix, echo("x"))).toThrow(/prefix must be a path/);
  });

  it("refuses a prefix mounted twice", () => {
    const mounts = new Mounts();
    mounts.add("/docs", echo("a"));
    expect(() => mounts.add("/docs", echo("b"))).toThrow(/mounted already/);
  });
});

describe("server.mount", () => {
  it("serves mounted routes through the fetch adapter and leaves the service's routes alone", async () => {
    const { server } = testServer();
    server.mount("/docs", echo("docs"));
    const handle = fetchHandler(server);
    const mounted = await handle(new Request("https://api.example.com/docs/index.html?q=1"));
    expect(await mounted.json()).toEqual({ tag: "docs", url: "https://api.example.com/docs/index.html?q=1", method: "GET", body: null });
    const service = await handle(
      new Request("https://api.example.com/echo/ann", { method: "POST", body: `{"text":"hey"}`, headers: { "content-type": "application/json" } }),
    );
    expect([service.status, await service.json()]).toEqual([200, { message: "ann:3" }]);
  });

  it("serves mounted routes on Node with the origin the client used, bodies included", async () => {
    const { server } = testServer();
    server.mount("/tools", echo("tools"));
    const listener = await listen(server);
    try {
      const get = await fetch(`${listener.url}/tools/x?y=1`);
      expect(get.headers.get("x-mounted")).toBe("tools");
      expect(await get.json()).toEqual({ tag: "tools", url: `${listener.url}/tools/x?y=1`, method: "GET", body: null });
      const post = await fetch(`${listener.url}/tools`, { method: "POST", body: "hello", headers: { "X-Note": "pt" } });
      expect(await post.json()).toMatchObject({ method: "POST", body: "hello", note: "pt" });
      const unmounted = await fetch(`${listener.url}/toolsx`);
      expect(unmounted.status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it("serves mounted routes over HTTP/2, with the :authority as the origin", async () => {
    const { server } = testServer();
    server.mount("/tools", echo("tools"));
    const listener = await listen(server, { http2: true });
    const session = http2.connect(listener.url);
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const stream = session.request({ ":path": "/tools/h2?x=1" });
        let text = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => (text += chunk));
        stream.on("end", () => resolve(text));
        stream.on("error", reject);
        stream.end();
      });
      expect(JSON.parse(body)).toEqual({ tag: "tools", url: `${listener.url}/tools/h2?x=1`, method: "GET", body: null });
      // A body sent with the headers reaches the mounted handler whole (the pipeline's early read leaves it alone).
      const posted = await new Promise<string>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": "/tools/up" });
        let text = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => (text += chunk));
        stream.on("end", () => resolve(text));
        stream.on("error", reject);
        stream.end("sent with the headers");
      });
      expect(JSON.parse(posted)).toMatchObject({ method: "POST", body: "sent with the headers" });
    } finally {
      session.close();
      await listener.close();
    }
  });

  it("serves a mount added after the server started", async () => {
    const { server } = testServer();
    const handle = fetchHandler(server);
    expect((await handle(new Request("https://api.example.com/late"))).status).toBe(404);
    server.mount("/late", echo("late"));
    expect((await handle(new Request("https://api.example.com/late"))).headers.get("x-mounted")).toBe("late");
  });
});
