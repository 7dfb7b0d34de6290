import { describe, expect, it } from "vitest";
import { accessDenied, createServer, fetchHandler, type ServerInterceptor } from "./index.js";
import { testProtocol } from "./test-protocol.js";
import { TestService } from "./test-service.js";

const echo = (input: { name: string; text?: string }) => ({ message: `${input.name}:${input.text ?? ""}` });
const others = { fail: () => ({}), download: () => ({}), upload: () => ({}), wait: () => ({}) };

function serve(interceptors: readonly ServerInterceptor[], setup?: (server: ReturnType<typeof make>) => void) {
  const internal: unknown[] = [];
  const server = make(interceptors, internal);
  setup?.(server);
  const handle = fetchHandler(server);
  const call = async (text = "hi") => {
    const response = await handle(
      new Request("https://api.example.com/echo/ann", { method: "POST", body: JSON.stringify({ text }), headers: { "content-type": "application/json" } }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { call, internal };
}

function make(interceptors: readonly ServerInterceptor[], internal: unknown[]) {
  return createServer(TestService, { protocols: [testProtocol("test#json")], interceptors, onInternalError: (error) => internal.push(error) })
    .register({ echo, ...others })
    .mapService();
}

describe("server interceptors (fetch adapter)", () => {
  it("see the operation, protocol, input and context, and the output", async () => {
    const seen: unknown[] = [];
    const { call } = serve([
      (next) => async (call) => {
        seen.push([call.service.id, call.operation.id, call.method, call.protocol, call.input, call.context.headers.get("content-type")]);
        const output = await next(call);
        seen.push(output);
        return output;
      },
    ]);
    expect(await call()).toEqual({ status: 200, body: { message: "ann:hi" } });
    expect(seen).toEqual([
      ["example.test#TestService", "example.test#Echo", "echo", "test#json", { name: "ann", text: "hi" }, "application/json"],
      { message: "ann:hi" },
    ]);
  });

  it("may pass the handler another input, or answer without it", async () => {
    const { call } = serve([
      (next) => (call) =>
        (call.input as { text?: string }).text === "skip"
          ? Promise.resolve({ message: "short-circuited" })
          : next({ ...call, input: { ...(call.input as object), text: "changed" } }),
    ]);
    expect((await call("hi")).body).toEqual({ message: "ann:changed" });
    expect((await call("skip")).body).toEqual({ message: "short-circuited" });
  });

  it("see the handler's error before it is written, and may replace it", async () => {
    const errors: unknown[] = [];
    const refusing: ServerInterceptor = (next) => async (call) => {
      try {
        return await next(call);
      } catch (error) {
        errors.push(error);
        throw accessDenied("no echo for you");
      }
    };
    const { call } = serve([refusing], (server) => server.register("echo", () => Promise.reject(new Error("db down"))));
    expect(await call()).toEqual({ status: 403, body: { type: "AccessDeniedException", message: "no echo for you" } });
    expect((errors[0] as Error).message).toBe("db down");
  });

  it("answer an interceptor's unmodeled error as a handler's: a 500 that leaks nothing, reported", async () => {
    const { call, internal } = serve([
      () => () => {
        throw new Error("secret: hunter2");
      },
    ]);
    const answer = await call();
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).not.toContain("hunter2");
    expect((internal[0] as Error).message).toBe("secret: hunter2");
  });

  it("run in order: options first, then use(), then the operation's own, each around the next", async () => {
    const trail: string[] = [];
    const tag =
      (name: string): ServerInterceptor =>
      (next) =>
      async (call) => {
        trail.push(`${name}>`);
        const output = await next(call);
        trail.push(`<${name}`);
        return output;
      };
    const { call } = serve([tag("a"), tag("b")], (server) => server.use("echo", tag("op1")).use(tag("c")).use("echo", tag("op2")).use("fail", tag("never")));
    await call();
    expect(trail).toEqual(["a>", "b>", "c>", "op1>", "op2>", "<op2", "<op1", "<c", "<b", "<a"]);
  });

  it("cannot be added after the server started, or to an operation the service lacks", () => {
    const server = make([], []);
    expect(() => server.use("nope" as never, (next) => next)).toThrow(/has no operation nope/);
    server.start();
    expect(() => server.use((next) => next)).toThrow(/cannot add interceptors after the server started/);
  });
});
