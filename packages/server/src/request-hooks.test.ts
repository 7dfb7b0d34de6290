import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { createServer, fetchHandler, type RequestHooks, type RoutedRequest, type ServerInterceptor } from "./index.js";
import { testProtocol } from "./test-protocol.js";
import { TestService } from "./test-service.js";

const others = { download: () => ({}), upload: () => ({}), wait: () => ({}) };

function serve(interceptors: readonly (ServerInterceptor | RequestHooks)[], handlers: Partial<Record<"echo" | "fail", (input: never) => unknown>> = {}) {
  const internal: unknown[] = [];
  const server = createServer(TestService, { protocols: [testProtocol("test#json")], interceptors, onInternalError: (error) => internal.push(error) })
    .register({
      echo: (input: { name: string; text?: string }) => ({ message: `${input.name}:${input.text ?? ""}` }),
      fail: () => {
        throw new Error("secret: hunter2");
      },
      ...others,
    })
    .mapService();
  for (const [key, handler] of Object.entries(handlers)) server.register(key as "echo", handler as never);
  const handle = fetchHandler(server);
  const post = async (path: string, body: string) => {
    const response = await handle(new Request(`https://api.example.com${path}`, { method: "POST", body, headers: { "content-type": "application/json" } }));
    return { status: response.status, text: await response.text() };
  };
  return { post, internal };
}

/** Hooks that record what they saw of each call, before and after it. */
function recording(seen: unknown[], name = "hook"): RequestHooks {
  return {
    async aroundRequest(call, next) {
      seen.push([`${name}>`, call.method, call.operation.id, call.protocol, call.request.path, call.context === undefined]);
      const response = await next();
      seen.push([`${name}<`, response.status, call.context?.operation.id, call.error === undefined ? "ok" : (call.error as Error).name]);
      return response;
    },
  };
}

describe("request hooks", () => {
  it("see the routed call before anything runs, and its answer and outcome after", async () => {
    const seen: unknown[] = [];
    const { post } = serve([recording(seen)]);
    expect(await post("/echo/ann", '{"text":"hi"}')).toEqual({ status: 200, text: '{"message":"ann:hi"}' });
    expect(seen).toEqual([
      ["hook>", "echo", "example.test#Echo", "test#json", "/echo/ann", true],
      ["hook<", 200, "example.test#Echo", "ok"],
    ]);
  });

  it("see calls refused before the handler, which call interceptors never see", async () => {
    const seen: unknown[] = [];
    const reached: string[] = [];
    const { post } = serve([recording(seen), (next) => (call) => (reached.push(call.method), next(call))]);
    expect((await post("/echo/ann", "{not json")).status).toBe(400);
    expect(seen[1]).toEqual(["hook<", 400, "example.test#Echo", "SerializationError"]);
    expect(reached).toEqual([]);
  });

  it("see what a failed handler threw, while the caller gets a 500 that leaks nothing", async () => {
    let error: unknown;
    const { post, internal } = serve([
      {
        aroundRequest: async (call, next) => {
          const response = await next();
          error = call.error;
          return response;
        },
      },
    ]);
    const answer = await post("/fail", "{}");
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain("hunter2");
    expect((error as Error).message).toBe("secret: hunter2");
    expect(internal).toEqual([error]);
  });

  it("run outside every call interceptor, the first outermost, wherever they stand in the list", async () => {
    const seen: string[] = [];
    const hook = (name: string): RequestHooks => ({
      aroundRequest: async (_call, next) => {
        seen.push(`${name}>`);
        const response = await next();
        seen.push(`${name}<`);
        return response;
      },
    });
    const wrap =
      (name: string): ServerInterceptor =>
      (next) =>
      async (call) => {
        seen.push(`${name}>`);
        try {
          return await next(call);
        } finally {
          seen.push(`${name}<`);
        }
      };
    const { post } = serve([wrap("i1"), hook("h1"), wrap("i2"), hook("h2")]);
    await post("/echo/ann", "{}");
    expect(seen).toEqual(["h1>", "h2>", "i1>", "i2>", "i2<", "i1<", "h2<", "h1<"]);
  });

  it("run the rest of the call in their async context: the handler sees what the hook set", async () => {
    const store = new AsyncLocalStorage<string>();
    const { post } = serve([{ aroundRequest: (call, next) => store.run(`span of ${call.method}`, next) }], {
      echo: () => ({ message: store.getStore() ?? "none" }),
    });
    expect(await post("/echo/ann", "{}")).toEqual({ status: 200, text: '{"message":"span of echo"}' });
  });

  it("may hand back the answer with its body wrapped, to see a streamed answer end", async () => {
    let ended = false;
    const { post } = serve([
      {
        aroundRequest: async (_call, next) => {
          const response = await next();
          async function* body() {
            yield new TextEncoder().encode(typeof response.body === "string" ? response.body : "");
            ended = true;
          }
          return { ...response, body: body() };
        },
      },
    ]);
    expect(await post("/echo/ann", '{"text":"x"}')).toEqual({ status: 200, text: '{"message":"ann:x"}' });
    expect(ended).toBe(true);
  });

  it("that throw or reject are reported, and the call is answered as if they were not there (once)", async () => {
    let calls = 0;
    const { post, internal } = serve(
      [
        { aroundRequest: () => Promise.reject(new Error("hook broke")) },
        {
          aroundRequest: async (_call, next) => {
            await next();
            await next();
            throw new Error("late");
          },
        },
      ],
      {
        echo: () => {
          calls++;
          return { message: "once" };
        },
      },
    );
    expect(await post("/echo/ann", "{}")).toEqual({ status: 200, text: '{"message":"once"}' });
    expect(calls).toBe(1);
    expect(internal.map((e) => (e as Error).message)).toEqual(["late", "hook broke"]);
  });

  it("are not run for requests that reach no operation", async () => {
    const seen: unknown[] = [];
    const { post } = serve([recording(seen)]);
    expect((await post("/nowhere", "{}")).status).toBe(404);
    expect(seen).toEqual([]);
  });

  it("are added with use(), and anything else is refused", async () => {
    const seen: RoutedRequest[] = [];
    const server = createServer(TestService, { protocols: [testProtocol("test#json")] })
      .use({ aroundRequest: (call, next) => (seen.push(call), next()) })
      .register({ echo: () => ({}), fail: () => ({}), ...others })
      .mapService();
    await fetchHandler(server)(new Request("https://x/echo/a", { method: "POST", body: "{}" }));
    expect(seen.map((c) => c.method)).toEqual(["echo"]);
    expect(() => createServer(TestService, { protocols: [testProtocol("test#json")] }).use({} as never)).toThrow(/request hooks/);
  });
});
