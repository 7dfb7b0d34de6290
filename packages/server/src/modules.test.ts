/**
 * Several services on one server (`server.add(module)`): the server's own
 * routes first, then the modules'; what a module learns of the server's
 * life; modules that answer while the server closes; and the mistakes
 * `add` refuses.
 */
import { HttpHeaders, type HttpResponse, type ServiceHost, type ServiceModule, type ServingState } from "@anvil/core";
import { readBody } from "@anvil/core/protocol";
import { member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { describe, expect, it } from "vitest";
import { createInMemoryTransport, createServer } from "./index.js";
import { testProtocol } from "./test-protocol.js";
import { TestService } from "./test-service.js";

const Ping = operation("example.extra#Ping", {
  input: struct("example.extra#PingInput", []),
  output: struct<{ pong?: string }>("example.extra#PingOutput", [member("pong", string)]),
  traits: { http: { method: "POST", uri: "/ping", code: 200 } },
});
const Extra = service("example.extra#Extra", { operations: { ping: Ping }, protocols: ["test#json"] });

/** A module serving Extra, recording what it is told. */
function extraModule(options: { servesWhileClosing?: boolean } = {}) {
  const told: ServingState[] = [];
  let host: ServiceHost | undefined;
  const module: ServiceModule = {
    services: [{ service: Extra, handlers: { ping: (_input: unknown, context: { protocol: string }) => ({ pong: context.protocol }) } }],
    protocols: [testProtocol("test#json")],
    ...(options.servesWhileClosing !== undefined ? { servesWhileClosing: options.servesWhileClosing } : {}),
    attach(given) {
      host = given;
      given.onStateChange((state) => told.push(state));
    },
  };
  return { module, told, host: () => host };
}

const handlers = {
  echo: (input: { name: string }) => ({ message: `echo ${input.name}` }),
  fail: () => ({}),
  download: () => ({}),
  upload: () => ({ size: 0 }),
  wait: () => ({}),
};

const json = async (response: HttpResponse) => ({ status: response.status, body: JSON.parse(new TextDecoder().decode(await readBody(response.body))) });

function call(server: ReturnType<typeof createServer>, path: string) {
  const transport = createInMemoryTransport(server);
  return transport.send({ method: "POST", url: new URL(`http://x${path}`), headers: new HttpHeaders({ "content-type": "application/json" }), body: undefined });
}

describe("server.add", () => {
  it("serves a module's services on the same listener, after the server's own routes", async () => {
    const extra = extraModule();
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register(handlers)
      .mapService()
      .add(extra.module);
    expect(await json(await call(server, "/echo/ada"))).toEqual({ status: 200, body: { message: "echo ada" } });
    expect(await json(await call(server, "/ping"))).toEqual({ status: 200, body: { pong: "test#json" } });
    expect((await call(server, "/nowhere")).status).toBe(404);
  });

  it("tells a module of the server's services and life: starting, serving, closing", async () => {
    const extra = extraModule();
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register(handlers)
      .mapService()
      .add(extra.module);
    const host = extra.host()!;
    expect(host.services.map((s) => s.id)).toEqual(["example.test#TestService", "example.extra#Extra"]);
    expect([host.state, server.state]).toEqual(["starting", "starting"]);
    server.start();
    expect([host.state, server.state]).toEqual(["serving", "serving"]);
    const closed = server.close({ graceMs: 0 });
    // Synchronously, before anything else happens.
    expect(extra.told).toEqual(["serving", "closing"]);
    await closed;
    expect(host.state).toBe("closing");
  });

  it("refuses a module's calls while the server closes, unless the module serves then", async () => {
    for (const servesWhileClosing of [false, true]) {
      const extra = extraModule({ servesWhileClosing });
      const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
        .register(handlers)
        .mapService()
        .add(extra.module)
        .start();
      await server.close({ graceMs: 0 });
      expect([servesWhileClosing, (await call(server, "/ping")).status]).toEqual([servesWhileClosing, servesWhileClosing ? 200 : 503]);
      expect((await call(server, "/echo/ada")).status).toBe(503);
    }
  });

  it("logs module calls under the module's service", async () => {
    const entries: { service: string; operation?: string }[] = [];
    const server = createServer(TestService, { protocols: [testProtocol("test#json")], accessLog: (entry) => entries.push(entry) })
      .register(handlers)
      .mapService()
      .add(extraModule().module);
    await call(server, "/ping");
    await call(server, "/echo/ada");
    expect(entries.map((e) => [e.service, e.operation])).toEqual([
      ["example.extra#Extra", "ping"],
      ["example.test#TestService", "echo"],
    ]);
  });

  it.each([
    ["not a module", () => ({}) as never, /takes a ServiceModule/],
    ["no protocol", () => ({ services: [], protocols: [] }), /needs at least one protocol/],
    ["a missing handler", () => ({ services: [{ service: Extra, handlers: {} }], protocols: [testProtocol("test#json")] }), /have no method ping/],
    ["the server's own service", () => ({ services: [{ service: TestService, handlers }], protocols: [testProtocol("test#json")] }), /served already/],
  ])("refuses %s", (_what, module, message) => {
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register(handlers)
      .mapService();
    expect(() => server.add(module())).toThrow(message);
  });

  it("refuses a module after the server started, and the same module twice", () => {
    const { module } = extraModule();
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .register(handlers)
      .mapService()
      .add(module);
    expect(() => server.add(module)).toThrow(/added already/);
    server.start();
    expect(() => server.add(extraModule().module)).toThrow(/after the server started/);
  });
});
