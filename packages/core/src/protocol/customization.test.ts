import { describe, expect, it } from "vitest";
import { member, operation, service, string, struct } from "../schema/builders.js";
import type { HttpRequest, HttpResponse } from "./http.js";
import type { ClientCallContext, ClientProtocol } from "./protocol.js";
import { type RequestCustomization, withRequestCustomizations } from "./customization.js";

const Op = operation("ex#Op", { input: () => struct("ex#OpInput", [member("name", string)]), output: () => struct("ex#OpOutput", []) });
const Mine = service("ex#Mine", { version: "1", operations: { op: Op } });
const Other = service("ex#Other", { version: "1", operations: { op: Op } });
const call = (svc = Mine): ClientCallContext => ({ endpoint: new URL("https://example.com"), service: svc });

/** A protocol that writes the input's name into a header and records what it saw. */
function recordingProtocol(): ClientProtocol & { inputs: unknown[] } {
  const inputs: unknown[] = [];
  return {
    id: "test#proto",
    inputs,
    async serializeRequest(_op, input) {
      inputs.push(input);
      const headers = new Headers({ "x-name": String((input as { name?: string }).name) });
      return { method: "POST", path: "/", query: [], headers, body: undefined };
    },
    async deserializeResponse(_op, response) {
      return { status: response.status };
    },
  };
}

const tagging = (id: string, log: string[]): RequestCustomization => ({
  id,
  appliesTo: (s) => s.id === "ex#Mine",
  modifyInput(input, ctx) {
    log.push(`${id} input ${ctx.operation.id}`);
    return { ...(input as object), name: `${(input as { name: string }).name}+${id}` };
  },
  modifyRequest(request: HttpRequest, input, ctx) {
    log.push(`${id} request ${ctx.call.service.id} ${(input as { name: string }).name}`);
    const headers = new Headers(request.headers);
    headers.append("x-by", id);
    return { ...request, headers };
  },
});

describe("withRequestCustomizations", () => {
  it("runs every input step, then the protocol, then every request step, in order", async () => {
    const log: string[] = [];
    const protocol = recordingProtocol();
    const client = withRequestCustomizations(protocol, [tagging("a", log), tagging("b", log)]);
    const input = { name: "n" };
    const request = await client.serializeRequest(Op, input, call());
    expect(request.headers.get("x-name")).toBe("n+a+b");
    expect(request.headers.get("x-by")).toBe("a, b");
    expect(log).toEqual(["a input ex#Op", "b input ex#Op", "a request ex#Mine n+a+b", "b request ex#Mine n+a+b"]);
    expect(input).toEqual({ name: "n" });
    expect(client.id).toBe("test#proto");
  });

  it("leaves calls of other services alone, and asks appliesTo once per service", async () => {
    let asked = 0;
    const log: string[] = [];
    const c = tagging("a", log);
    const counting: RequestCustomization = { ...c, appliesTo: (s) => (asked++, c.appliesTo(s)) };
    const client = withRequestCustomizations(recordingProtocol(), [counting]);
    expect((await client.serializeRequest(Op, { name: "n" }, call(Other))).headers.get("x-name")).toBe("n");
    await client.serializeRequest(Op, { name: "n" }, call(Other));
    expect(log).toEqual([]);
    expect(asked).toBe(1);
  });

  it("passes responses through, and returns the protocol itself when given no customizations", async () => {
    const protocol = recordingProtocol();
    const response: HttpResponse = { status: 204, headers: new Headers(), body: undefined };
    expect(await withRequestCustomizations(protocol, [tagging("a", [])]).deserializeResponse(Op, response, call())).toEqual({ status: 204 });
    expect(withRequestCustomizations(protocol, [])).toBe(protocol);
  });
});
