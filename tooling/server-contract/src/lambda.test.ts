/**
 * The server on AWS Lambda (`@anvil/server/lambda`), for every HTTP
 * protocol and every front a Lambda function is called through (HTTP API
 * 2.0 and 1.0, REST API, function URL, ALB with and without multi-value
 * headers): the same call gets the same status, headers and body bytes as
 * through the plain fetch handler, and the client reads it as it reads any
 * answer. The calls: a round trip with labels, query, a header and a blob, a
 * blob download, a modeled error, a ValidationException, an internal
 * failure and an unknown operation.
 */
import { type ClientProtocol, errorClass, type HttpRequest, type HttpResponse, type OperationSchema, type ServerProtocol } from "@anvil/core";
import { readBody } from "@anvil/core/protocol";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { rpcv2Json } from "@anvil/protocol-rpcv2json";
import { createServer, fetchHandler } from "@anvil/server";
import { lambdaHandler } from "@anvil/server/lambda";
import { beforeAll, describe, expect, it } from "vitest";
import { FRONTS, fromResult, hostOf, queryString, toEvent } from "./lambda-events.js";
import { type Book, library, libraryHandlers, NoSuchBook, SECRET, ValidationException } from "./library.js";

const PROTOCOLS: readonly { id: string; make: () => { client: ClientProtocol; server: ServerProtocol } }[] = [
  { id: "aws.protocols#restJson1", make: restJson1 },
  { id: "alloy#simpleRestJson", make: simpleRestJson },
  { id: "aws.protocols#awsJson1_0", make: awsJson1_0 },
  { id: "aws.protocols#awsJson1_1", make: awsJson1_1 },
  { id: "smithy.protocols#rpcv2Cbor", make: rpcv2Cbor },
  { id: "smithy.protocols#rpcv2Json", make: rpcv2Json },
];

const BOOK: Book = {
  shelf: "fiction",
  // Needs percent-encoding in a label (no "/": an HTTP API hands paths over decoded, and one would split the label).
  bookId: "b 1+ü%",
  title: "The Left Hand of Darkness",
  edition: 3,
  requestId: "req-42",
  publishedAt: new Date("1969-03-01T12:30:45.250Z"),
  isbn: 9780441478125000000000n,
  cover: new Uint8Array([0, 1, 2, 253, 254, 255]),
};
const { requestId: _requestId, ...STORED } = BOOK;

/** The calls, each with what the client must read from the answer. */
const CALLS: readonly {
  readonly name: string;
  readonly operation: "putBook" | "getBook" | "getCover" | "crash";
  readonly input: unknown;
  readonly check: (outcome: unknown, response: HttpResponse) => void;
}[] = [
  {
    name: "a round trip with labels, query, a header, a timestamp, a big integer and a blob",
    operation: "putBook",
    input: BOOK,
    check: (o) => expect(o).toEqual(BOOK),
  },
  { name: "a read", operation: "getBook", input: { shelf: BOOK.shelf, bookId: BOOK.bookId }, check: (o) => expect(o).toEqual(STORED) },
  { name: "a blob download", operation: "getCover", input: { bookId: BOOK.bookId }, check: (o) => expect(o).toEqual({ data: BOOK.cover }) },
  {
    name: "a modeled error",
    operation: "getBook",
    input: { shelf: "fiction", bookId: "nope" },
    check: (error, response) => {
      expect(response.status).toBe(404);
      expect(errorClass(NoSuchBook).is(error)).toBe(true);
      expect(error).toMatchObject({ bookId: "nope" });
    },
  },
  {
    name: "a ValidationException",
    operation: "putBook",
    input: { ...BOOK, shelf: "x".repeat(17), title: "", edition: 100 },
    check: (error, response) => {
      expect(response.status).toBe(400);
      expect(errorClass(ValidationException).is(error)).toBe(true);
      expect((error as { fieldList: { path: string }[] }).fieldList.map((f) => f.path).sort()).toEqual(["/edition", "/shelf", "/title"]);
    },
  },
  {
    name: "an internal failure",
    operation: "crash",
    input: {},
    check: (error, response) => {
      expect(response.status).toBe(500);
      expect(String((error as Error).message)).not.toContain(SECRET);
    },
  },
];

/** The outcome of a call as the client reads it: the output, or the error it throws. */
function outcome(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (output) => output,
    (error: unknown) => error,
  );
}

/** Headers as sorted `[name, value]` pairs (each Set-Cookie apart). */
function pairs(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => out.push([name, value]));
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

describe.each(PROTOCOLS)("$id on Lambda", (p) => {
  const service = library(p.id);
  const { client, server: serverProtocol } = p.make();
  const server = createServer(service, { protocols: [serverProtocol], onInternalError: () => {} })
    .register(libraryHandlers())
    .mapService();
  const direct = fetchHandler(server);
  const handler = lambdaHandler(server);

  /** The request of a call, its body read once (to send the same bytes both ways). */
  async function requestOf(operation: OperationSchema, input: unknown, front: (typeof FRONTS)[number]): Promise<HttpRequest> {
    const request = await client.serializeRequest(operation, input, { endpoint: new URL(`https://${hostOf(front)}`), service });
    return { ...request, body: request.body === undefined ? undefined : await readBody(request.body) };
  }

  /** The answer through the plain fetch handler. */
  async function viaFetch(request: HttpRequest, front: (typeof FRONTS)[number]): Promise<HttpResponse> {
    const query = queryString(request);
    const response = await direct(
      new Request(`https://${hostOf(front)}${request.path}${query === "" ? "" : `?${query}`}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body as Uint8Array<ArrayBuffer> } : {}),
      }),
      { remoteAddress: "198.51.100.7" },
    );
    return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
  }

  /** The answer through a front and the Lambda handler. */
  async function viaLambda(request: HttpRequest, front: (typeof FRONTS)[number]): Promise<HttpResponse> {
    const event = await toEvent(front, request, "JKJaXmPLvHcESHA=");
    const end = Date.now() + 30_000;
    return fromResult(await handler(event, { awsRequestId: "8f5b2c1e-0d3a-4b6f-9e7d-1a2b3c4d5e6f", getRemainingTimeInMillis: () => end - Date.now() }));
  }

  beforeAll(async () => {
    await viaFetch(await requestOf(service.operations.putBook, BOOK, "REST API"), "REST API");
  });

  it.each(FRONTS.flatMap((front) => CALLS.map((call) => [front, call.name, call] as const)))(
    "through %s, %s answers as the fetch handler does",
    async (front, _name, call) => {
      const operation = service.operations[call.operation];
      const request = await requestOf(operation, call.input, front);
      const expected = await viaFetch(request, front);
      const got = await viaLambda(request, front);
      expect({ status: got.status, headers: pairs(got.headers), body: [...(got.body as Uint8Array)] }).toEqual({
        status: expected.status,
        headers: pairs(expected.headers),
        body: [...(expected.body as Uint8Array)],
      });
      call.check(await outcome(Promise.resolve(client.deserializeResponse(operation, got, { endpoint: new URL(`https://${hostOf(front)}`), service }))), got);
    },
  );

  it("carries binary bodies as base64 both ways", async () => {
    const cbor = p.id === "smithy.protocols#rpcv2Cbor";
    const upload = await toEvent("HTTP API (2.0)", await requestOf(service.operations.putBook, BOOK, "HTTP API (2.0)"), "id");
    expect(upload.isBase64Encoded).toBe(cbor);
    const cover = await handler(await toEvent("function URL", await requestOf(service.operations.getCover, { bookId: BOOK.bookId }, "function URL"), "id"));
    // restJson1 answers the blob payload as bytes, rpcv2Cbor as CBOR: both go as base64; the others answer JSON text
    // (simpleRestJson writes even a blob payload as JSON).
    expect([cover.isBase64Encoded, fromResult(cover).headers.get("content-type")]).toEqual(
      cbor ? [true, "application/cbor"] : p.id === "aws.protocols#restJson1" ? [true, "application/octet-stream"] : [false, expect.stringMatching(/json/)],
    );
  });

  it("answers an unknown operation with the protocol's 404 through every front", async () => {
    const unknown = {
      ...service.operations.crash,
      id: "example.library#Unknown",
      name: "Unknown",
      traits: { http: { method: "POST", uri: "/unknown", code: 200 } },
    };
    const otherService = { ...service, operations: { ...service.operations, unknown } };
    for (const front of FRONTS) {
      const request = await client.serializeRequest(unknown, {}, { endpoint: new URL(`https://${hostOf(front)}`), service: otherService });
      const got = await viaLambda({ ...request, body: request.body === undefined ? undefined : await readBody(request.body) }, front);
      expect(got.status).toBe(404);
    }
  });
});
