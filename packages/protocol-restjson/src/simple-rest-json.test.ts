import { describe, expect, it } from "vitest";
import { errorClass, type HttpRequest, type HttpResponse, type ModeledError, UnmodeledError, validateValue } from "@anvil/core";
import { blob, document, enumeration, integer, intEnum, member, operation, service, string, struct, union } from "@anvil/core/codegenv1";
import { restJson1, simpleRestJson } from "./index.js";

const Sold = struct("example.bakery#SoldOut", [member("item", string, { required: true })], { error: "client", httpError: 409 });
const Closed = struct("example.bakery#Closed", [member("reason", string)], { error: "client" });
const Bread = struct("example.bakery#Bread", [member("grain", string, { required: true })]);
const Order = union("example.bakery#Order", [member("bread", Bread), member("other", document, { jsonUnknown: true })], { discriminated: "kind" });

const PlaceOrder = operation("example.bakery#PlaceOrder", {
  input: struct("example.bakery#PlaceOrderInput", [
    member("shop", string, { required: true, httpLabel: true }),
    member("order", Order, { required: true, httpPayload: true }),
  ]),
  output: struct("example.bakery#PlaceOrderOutput", [member("ticket", string, { required: true, httpPayload: true })]),
  errors: [Sold, Closed],
  traits: { http: { method: "POST", uri: "/shops/{shop}/orders/", code: 201 } },
});
const GetNote = operation("example.bakery#GetNote", {
  input: struct("example.bakery#GetNoteInput", [member("note", string, { httpPayload: true, default: "none" })]),
  output: struct("example.bakery#GetNoteOutput", [member("note", string, { httpPayload: true, default: "none" })]),
  traits: { http: { method: "PUT", uri: "/note", code: 200 } },
});
const Moved = operation("example.bakery#Moved", {
  input: struct("example.bakery#MovedInput", []),
  output: struct("example.bakery#MovedOutput", [member("code", integer, { httpResponseCode: true }), member("to", string)]),
  traits: { http: { method: "GET", uri: "/moved", code: 200 } },
});
const Crust = enumeration("example.bakery#Crust", [{ name: "THIN", value: "thin" }], { openEnum: true });
const Size = intEnum("example.bakery#Size", [{ name: "SMALL", value: 1 }]);
const Bake = operation("example.bakery#Bake", {
  input: struct("example.bakery#BakeInput", [member("crust", Crust), member("size", Size), member("batch", string, { uuidFormat: true })]),
  output: struct("example.bakery#BakeOutput", []),
  traits: { http: { method: "POST", uri: "/bake", code: 200 } },
});
const PutPhoto = operation("example.bakery#PutPhoto", {
  input: struct("example.bakery#PutPhotoInput", [member("photo", blob, { httpPayload: true, mediaType: "image/png" })]),
  output: struct("example.bakery#PutPhotoOutput", [member("caption", string, { httpPayload: true, mediaType: "text/plain" })]),
  traits: { http: { method: "PUT", uri: "/photo", code: 200 } },
});
const Bakery = service("example.bakery#Bakery", {
  operations: { placeOrder: PlaceOrder, getNote: GetNote, moved: Moved, putPhoto: PutPhoto, bake: Bake },
  protocols: ["alloy#simpleRestJson"],
});

const { client, server } = simpleRestJson();
const clientContext = { endpoint: new URL("https://bakery.example.com"), service: Bakery };
const serverContext = (labels: Record<string, string> = {}) => ({ service: Bakery, labels });
const text = (body: unknown): string => (typeof body === "string" ? body : new TextDecoder().decode(body as Uint8Array));
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const response = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: new Headers({ "content-type": "application/json", ...headers }),
  body: bytes(body),
});
const request = (method: string, path: string, body?: string): HttpRequest => ({
  method,
  path,
  query: [],
  headers: new Headers(body === undefined ? {} : { "content-type": "application/json" }),
  body: body === undefined ? undefined : bytes(body),
});

describe("simpleRestJson", () => {
  it("is its own protocol id, beside restJson1", () => {
    expect(client.id).toBe("alloy#simpleRestJson");
    expect(server.id).toBe("alloy#simpleRestJson");
    expect(restJson1().client.id).toBe("aws.protocols#restJson1");
  });

  it("writes a discriminated union payload and a trailing-slash URI without the slash", async () => {
    const req = await client.serializeRequest(PlaceOrder, { shop: "main", order: { $case: "bread", value: { grain: "rye" } } }, clientContext);
    expect(req.path).toBe("/shops/main/orders");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(text(req.body))).toEqual({ kind: "bread", grain: "rye" });
  });

  it("routes the trailing-slash URI and keeps unknown variants in the @jsonUnknown member", async () => {
    expect(server.routes(Bakery).find((r) => r.operation === PlaceOrder)!.path).toBe("/shops/{shop}/orders");
    const input = await server.deserializeRequest(
      PlaceOrder,
      request("POST", "/shops/main/orders", `{"kind":"cake","layers":3}`),
      serverContext({ shop: "main" }),
    );
    expect(input).toEqual({ shop: "main", order: { $case: "other", value: { kind: "cake", layers: 3 } } });
  });

  it("writes and reads @httpPayload strings as JSON strings", async () => {
    const res = await server.serializeResponse(PlaceOrder, { ticket: "T-1" }, serverContext());
    expect(res.status).toBe(201);
    expect(text(res.body)).toBe(`"T-1"`);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await client.deserializeResponse(PlaceOrder, res, clientContext)).toEqual({ ticket: "T-1" });
  });

  it("writes blob and text payloads as JSON whatever their @mediaType, and accepts JSON back", async () => {
    const req = await client.serializeRequest(PutPhoto, { photo: bytes("PNG") }, clientContext);
    expect(text(req.body)).toBe(`"UE5H"`);
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(req.headers.get("accept")).toBe("application/json");
    const input = await server.deserializeRequest(PutPhoto, request("PUT", "/photo", `"UE5H"`), serverContext());
    expect(input).toEqual({ photo: bytes("PNG") });
    const res = await server.serializeResponse(PutPhoto, { caption: "crust" }, serverContext());
    expect(text(res.body)).toBe(`"crust"`);
    expect(res.headers.get("content-type")).toBe("application/json");
  });

  it("accepts unknown values of an @alloy#openEnum, not of a closed enum", async () => {
    expect(await server.deserializeRequest(Bake, request("POST", "/bake", `{"crust":"stuffed","size":1}`), serverContext())).toEqual({
      crust: "stuffed",
      size: 1,
    });
    // The server pipeline validates what the protocol read (constraints are @anvil/server's step).
    const closed = await server.deserializeRequest(Bake, request("POST", "/bake", `{"size":3}`), serverContext());
    expect(validateValue(Bake.input, closed).map((f) => f.path)).toEqual(["/size"]);
  });

  it("accepts only UUIDs in @alloy#uuidFormat strings", async () => {
    const batch = "51216269-c0c8-454a-871e-329513e54e23";
    expect(await server.deserializeRequest(Bake, request("POST", "/bake", `{"batch":"${batch}"}`), serverContext())).toEqual({ batch });
    const tuesday = await server.deserializeRequest(Bake, request("POST", "/bake", `{"batch":"tuesday"}`), serverContext());
    expect(validateValue(Bake.input, tuesday).map((f) => f.path)).toEqual(["/batch"]);
  });

  it("gives an absent payload its @default, on both sides", async () => {
    expect(await server.deserializeRequest(GetNote, request("PUT", "/note"), serverContext())).toEqual({ note: "none" });
    expect(await client.deserializeResponse(GetNote, { status: 200, headers: new Headers(), body: new Uint8Array(0) }, clientContext)).toEqual({
      note: "none",
    });
  });

  it("reads a 3xx response as output when the output binds the status code", async () => {
    expect(await client.deserializeResponse(Moved, response(302, `{"to":"/new"}`), clientContext)).toEqual({ code: 302, to: "/new" });
    const error = await client.deserializeResponse(PlaceOrder, response(302, `{}`), clientContext).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmodeledError);
  });

  it("names errors with X-Error-Type, and restJson1's header too", async () => {
    const res = await server.serializeError(PlaceOrder, new (errorClass(Sold))({ item: "rye" }), serverContext());
    expect(res.status).toBe(409);
    expect(res.headers.get("x-error-type")).toBe("SoldOut");
    expect(res.headers.get("x-amzn-errortype")).toBe("SoldOut");
    const back = await client.deserializeResponse(PlaceOrder, res, clientContext).catch((e: unknown) => e);
    expect(errorClass(Sold).is(back)).toBe(true);
    expect((back as ModeledError).members()).toEqual({ item: "rye" });
  });

  it.each([
    ["X-Error-Type", 400, { "x-error-type": "Closed" }, Closed],
    ["restJson1's header", 400, { "x-amzn-errortype": "Closed" }, Closed],
    ["the status code alone (409)", 409, {}, Sold],
    ["the status code alone (400, the default of client errors)", 400, {}, Closed],
  ])("finds the modeled error by %s", async (_how, status, headers, schema) => {
    const body = schema === Sold ? `{"item":"rye"}` : `{"reason":"holiday"}`;
    const error = await client.deserializeResponse(PlaceOrder, response(status, body, headers), clientContext).catch((e: unknown) => e);
    expect(errorClass(schema).is(error)).toBe(true);
  });

  it("leaves an error no status code names unmodeled", async () => {
    const error = await client.deserializeResponse(PlaceOrder, response(503, `{"message":"later"}`), clientContext).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmodeledError);
    expect((error as UnmodeledError).code).toBe("Http503");
  });

  it("restJson1 does not guess errors from status codes", async () => {
    const error = await restJson1()
      .client.deserializeResponse(PlaceOrder, response(409, `{"item":"rye"}`), clientContext)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmodeledError);
  });
});
