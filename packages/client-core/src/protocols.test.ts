/**
 * End to end over real sockets with the real protocols: the client side of
 * restJson1, awsJson1_1 and rpcv2Cbor against their own server sides, behind
 * a minimal node:http router written here (not @anvil/server).
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { collectBytes, type HttpRequest, type HttpResponse, type OperationSchema, type Route, type ServerProtocol, type ServiceSchema } from "@anvil/core";
import { parseQuery } from "@anvil/core/protocol";
import { errorClass, integer, member, operation, service, string, struct, timestamp } from "@anvil/core/codegenv1";
import { awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1 } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "./client.js";

type City = { cityId: string; name: string; population?: number; founded?: Date };

const NoSuchCitySchema = struct<{ message?: string; cityId?: string }>("test.e2e#NoSuchCity", [member("message", string), member("cityId", string)], {
  error: "client",
  httpError: 404,
});
const OverloadedSchema = struct<{ message?: string }>("test.e2e#Overloaded", [member("message", string)], {
  error: "server",
  httpError: 503,
  retryable: { throttling: false },
});
const NoSuchCity = errorClass(NoSuchCitySchema);
const Overloaded = errorClass(OverloadedSchema);
const CitySchema = struct<City>("test.e2e#City", [
  member("cityId", string, { required: true }),
  member("name", string, { required: true }),
  member("population", integer),
  member("founded", timestamp),
]);
const GetCityInput = struct<{ cityId: string }>("test.e2e#GetCityInput", [member("cityId", string, { required: true, httpLabel: true })]);
const CreateCityInput = struct<{ name: string; population?: number; founded?: Date }>("test.e2e#CreateCityInput", [
  member("name", string, { required: true }),
  member("population", integer),
  member("founded", timestamp),
]);

const PROTOCOLS = ["aws.protocols#restJson1", "aws.protocols#awsJson1_1", "smithy.protocols#rpcv2Cbor"];
const Cities = service("test.e2e#Cities", {
  version: "1",
  protocols: PROTOCOLS,
  errors: [() => OverloadedSchema],
  operations: {
    getCity: operation("test.e2e#GetCity", {
      input: () => GetCityInput,
      output: () => CitySchema,
      errors: [() => NoSuchCitySchema],
      traits: { readonly: true, http: { method: "GET", uri: "/cities/{cityId}", code: 200 } },
    }),
    createCity: operation("test.e2e#CreateCity", {
      input: () => CreateCityInput,
      output: () => CitySchema,
      traits: { http: { method: "POST", uri: "/cities", code: 201 } },
    }),
  },
});

const cities = new Map<string, City>();
let flaky = 0;
const handlers: Record<string, (input: any) => Promise<unknown>> = {
  async getCity({ cityId }: { cityId: string }) {
    if (cityId === "flaky" && flaky++ === 0) throw new Overloaded({ message: "try again" });
    const city = cities.get(cityId) ?? (cityId === "flaky" ? { cityId, name: "Flaky" } : undefined);
    if (city === undefined) throw new NoSuchCity({ message: `no city ${cityId}`, cityId });
    return city;
  },
  async createCity(input: Omit<City, "cityId">) {
    const city = { cityId: input.name.toLowerCase(), ...input };
    cities.set(city.cityId, city);
    return city;
  },
};

/** Whether a route takes a request, with the labels it captures. */
function match(route: Route, request: HttpRequest): Record<string, string> | undefined {
  if (route.method !== request.method) return undefined;
  for (const [name, value] of Object.entries(route.headers ?? {})) if (request.headers.get(name) !== value) return undefined;
  for (const [name, value] of route.query ?? []) {
    if (!request.query.some(([n, v]) => n === name && (value === undefined || v === value))) return undefined;
  }
  const want = route.path.split("/").filter(Boolean);
  const got = request.path.split("/").filter(Boolean);
  const labels: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment.endsWith("+}")) {
      labels[segment.slice(1, -2)] = decodeURIComponent(got.slice(i).join("/"));
      return labels;
    }
    if (got[i] === undefined) return undefined;
    if (segment.startsWith("{")) labels[segment.slice(1, -1)] = decodeURIComponent(got[i]!);
    else if (segment !== got[i]) return undefined;
  }
  return want.length === got.length ? labels : undefined;
}

/** A node:http handler serving the service over every protocol given. */
function serve(svc: ServiceSchema, protocols: readonly ServerProtocol[]) {
  const routes = protocols.flatMap((protocol) => protocol.routes(svc).map((route) => ({ protocol, route })));
  const methodOf = new Map<OperationSchema, string>(Object.entries(svc.operations).map(([name, op]) => [op, name]));
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, "http://localhost");
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request: HttpRequest = { method: req.method!, path: url.pathname, query: parseQuery(url.search.slice(1)), headers, body: await collectBytes(req) };
    let response: HttpResponse = { status: 404, headers: new Headers(), body: undefined };
    for (const { protocol, route } of routes) {
      const labels = match(route, request);
      if (labels === undefined) continue;
      const context = { service: svc, labels };
      try {
        const input = await protocol.deserializeRequest(route.operation, request, context);
        const output = await handlers[methodOf.get(route.operation)!]!(input);
        response = await protocol.serializeResponse(route.operation, output, context);
      } catch (error) {
        response = await protocol.serializeError(route.operation, error, context);
      }
      break;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => (out[name] = value));
    res.writeHead(response.status, out);
    res.end(response.body === undefined ? undefined : await collectBytes(response.body));
  };
}

let endpoint = "";
let close: () => Promise<void>;
beforeAll(async () => {
  const server = createServer(serve(Cities, [restJson1().server, awsJson1_1().server, rpcv2Cbor().server]));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

describe.each([
  ["restJson1", restJson1],
  ["awsJson1_1", awsJson1_1],
  ["rpcv2Cbor", rpcv2Cbor],
])("%s end to end", (_name, protocol) => {
  const client = () => createClient(Cities, { endpoint, protocols: [protocol()], retry: { baseDelayMs: 1 } });

  it("creates and reads a city", async () => {
    const founded = new Date("1850-03-01T00:00:00Z");
    const created = await client().createCity({ name: `Oslo${_name}`, population: 700_000, founded });
    expect(created).toEqual({ cityId: `oslo${_name.toLowerCase()}`, name: `Oslo${_name}`, population: 700_000, founded });
    expect(created.$metadata).toMatchObject({ attempts: 1, totalRetryDelay: 0 });
    expect(await client().getCity({ cityId: created.cityId })).toEqual(created);
  });

  it("throws the modeled error class", async () => {
    const error = await client()
      .getCity({ cityId: "atlantis" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoSuchCity);
    expect(error).toMatchObject({ message: "no city atlantis", cityId: "atlantis", $metadata: { httpStatus: expect.any(Number), attempts: 1 } });
  });

  it("retries a @retryable service error of a readonly operation", async () => {
    flaky = 0;
    const city = await client().getCity({ cityId: "flaky" });
    expect(city).toMatchObject({ name: "Flaky", $metadata: { attempts: 2 } });
  });
});

it("speaks the first protocol the service declares when given several", async () => {
  const seen: string[] = [];
  const client = createClient(Cities, {
    endpoint,
    protocols: [rpcv2Cbor(), awsJson1_1(), restJson1()],
    interceptors: [{ beforeAttempt: (request) => void seen.push(`${request.method} ${request.path}`) }],
  });
  await client.createCity({ name: "Bergen" });
  expect(seen).toEqual(["POST /cities"]);
});
