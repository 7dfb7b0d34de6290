/**
 * The server contract: for every HTTP protocol, the same round trips go
 * from the protocol's client side, over a real loopback socket, through the
 * Node adapter and the whole server pipeline, and back; and again with no
 * socket, over `@anvil/server`'s in-memory transport. Outputs, modeled
 * errors, ValidationException, internal failures and unknown routes are
 * asserted by meaning, as a caller sees them; and for every protocol and
 * case, what a caller observes over the in-memory transport (status,
 * headers, body, decoded output or error) is what it observes over an
 * HTTP/1.1 socket.
 */
import * as http2 from "node:http2";
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@anvil/client-core";
import {
  type ClientCallContext,
  type ClientProtocol,
  errorClass,
  type HttpRequest,
  type HttpResponse,
  type OperationSchema,
  SerializationError,
  type ServerProtocol,
  UnmodeledError,
} from "@anvil/core";
import { gzip, readBody } from "@anvil/core/protocol";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1, simpleRestJson } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { createServer, type Server } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import { type Book, library, libraryHandlers, NoSuchBook, SECRET, ValidationException } from "./library.js";
import { fetchTransport, http2Transport, IN_MEMORY_URL, inMemoryTransport, type Transport } from "./transport.js";

interface ProtocolCase {
  readonly id: string;
  readonly make: () => { readonly client: ClientProtocol; readonly server: ServerProtocol };
  /** Whether `@http` bindings apply (labels, query, headers): the REST protocols. */
  readonly rest: boolean;
}

const PROTOCOLS: readonly ProtocolCase[] = [
  { id: "aws.protocols#restJson1", make: restJson1, rest: true },
  { id: "alloy#simpleRestJson", make: simpleRestJson, rest: true },
  { id: "aws.protocols#awsJson1_0", make: awsJson1_0, rest: false },
  { id: "aws.protocols#awsJson1_1", make: awsJson1_1, rest: false },
  { id: "smithy.protocols#rpcv2Cbor", make: rpcv2Cbor, rest: false },
];

/** A server served by a transport: how to send to it, the endpoint clients write requests for, and how to stop. */
interface Served {
  readonly send: Transport;
  readonly url: string;
  close(): Promise<void>;
}

interface TransportCase {
  /** How the suite names where the calls go. */
  readonly over: string;
  readonly serve: (server: Server<any, any>) => Promise<Served>;
  /** Whether the round trips are also made over HTTP/2 (h2c), to a second server. */
  readonly http2: boolean;
}

const TRANSPORTS: readonly TransportCase[] = [
  {
    over: "a loopback socket",
    http2: true,
    async serve(server) {
      const listener = await listen(server);
      return { send: fetchTransport(listener.url), url: listener.url, close: () => listener.close({ graceMs: 100 }) };
    },
  },
  {
    over: "the in-memory transport",
    // No h2c case: there is no connection to speak HTTP/2 on (the transport has HTTP/2's semantics, trailers and
    // streams both ways, already).
    http2: false,
    async serve(server) {
      // The address a loopback socket would give handlers, so that the cases stay the same.
      return { send: inMemoryTransport(server, { remoteAddress: "127.0.0.1" }), url: IN_MEMORY_URL, close: () => server.close({ graceMs: 100 }) };
    },
  },
];

const BOOK: Book = {
  shelf: "fiction",
  bookId: "b 1/ü", // needs percent-encoding in a label
  title: "The Left Hand of Darkness",
  edition: 3,
  requestId: "req-42",
  publishedAt: new Date("1969-03-01T12:30:45.250Z"),
  isbn: 9780441478125000000000n, // beyond 2^64
  cover: new Uint8Array([0, 1, 2, 253, 254, 255]),
};

/** What a book with three violations ({@link BOOK} with a long shelf, no title, edition 100) is told, on every protocol. */
const E1_FIELDS = [
  { path: "/shelf", message: "Value with length 17 at '/shelf' failed to satisfy constraint: Member must have length less than or equal to 16" },
  { path: "/edition", message: "Value at '/edition' failed to satisfy constraint: Member must be between 1 and 99, inclusive" },
  { path: "/title", message: "Value with length 0 at '/title' failed to satisfy constraint: Member must have length between 1 and 64, inclusive" },
];

/** A client for one protocol over one transport: serialize, send, deserialize. */
function clientFor(service: ReturnType<typeof library>, protocol: ClientProtocol, transport: Transport, endpoint: string) {
  const context: ClientCallContext = { endpoint: new URL(endpoint), service };
  return async (operation: OperationSchema, input: unknown): Promise<unknown> => {
    const request = await protocol.serializeRequest(operation, input, context);
    return protocol.deserializeResponse(operation, await transport(request), context);
  };
}

/** The rejection of a promise (failing if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.fail(`expected an error, got ${JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`),
    (error: unknown) => error,
  );
}

describe.each(PROTOCOLS.flatMap((p) => TRANSPORTS.map((t) => ({ ...p, ...t }))))("$id over $over", (p) => {
  const service = library(p.id);
  const { client, server: serverProtocol } = p.make();
  const handlers = libraryHandlers();
  let served: Served;
  let h2: NodeListener | undefined;
  let call: ReturnType<typeof clientFor>;

  beforeAll(async () => {
    const server = () =>
      createServer(service, { protocols: [serverProtocol], onInternalError: () => {} })
        .register(handlers)
        .mapService();
    served = await p.serve(server());
    if (p.http2) h2 = await listen(server(), { http2: true });
    call = clientFor(service, client, served.send, served.url);
  });
  afterAll(async () => {
    await served.close();
    await h2?.close({ graceMs: 100 });
  });

  it("round-trips an input with labels, query, a header, a timestamp, a big integer and a blob", async () => {
    const output = await call(service.operations.putBook, BOOK);
    expect(output).toEqual(BOOK);
    const context = handlers.contexts.at(-1)!;
    expect([context.protocol, context.remoteAddress]).toEqual([p.id, "127.0.0.1"]);
    if (p.rest) {
      // The bindings really were used on the wire.
      expect(context.headers.get("x-request-id")).toBe("req-42");
      expect(context.request.query).toEqual([["edition", "3"]]);
      expect(context.request.path).toBe("/shelves/fiction/books/b%201%2F%C3%BC");
    }
  });

  it("reads back what it stored", async () => {
    await call(service.operations.putBook, BOOK);
    const { requestId: _requestId, ...stored } = BOOK;
    expect(await call(service.operations.getBook, { shelf: BOOK.shelf, bookId: BOOK.bookId })).toEqual(stored);
  });

  it("answers a blob output", async () => {
    await call(service.operations.putBook, BOOK);
    expect(await call(service.operations.getCover, { bookId: BOOK.bookId })).toEqual({ data: BOOK.cover });
  });

  it("answers a modeled error the client turns back into its class", async () => {
    const error = await rejection(call(service.operations.getBook, { shelf: "fiction", bookId: "nope" }));
    expect(errorClass(NoSuchBook).is(error)).toBe(true);
    expect(error).toMatchObject({ bookId: "nope", message: "no book nope on fiction" });
  });

  it("S6: a long beyond 2^53 (9007199254740993) reaches the handler and comes back as itself, never rounded", async () => {
    for (const copies of [9007199254740993n, -9007199254740993n, 2n ** 63n - 1n, 9007199254740991]) {
      const output = (await call(service.operations.putBook, { ...BOOK, bookId: "long", copies })) as Book;
      expect([copies, output.copies]).toEqual([copies, copies]);
    }
  });

  it("E1: answers input that breaks the model's constraints with a ValidationException naming every field, in the same order on every protocol", async () => {
    const error = await rejection(call(service.operations.putBook, { ...BOOK, shelf: "x".repeat(17), title: "", edition: 100 }));
    expect(errorClass(ValidationException).is(error)).toBe(true);
    expect((error as { fieldList: { path: string; message: string }[] }).fieldList).toEqual(E1_FIELDS);
  });

  it("answers an unmodeled exception with a 500 that leaks nothing", async () => {
    const request = await client.serializeRequest(service.operations.crash, {}, { endpoint: new URL(served.url), service });
    const response = await served.send(request);
    expect(response.status).toBe(500);
    expect(Buffer.from(response.body as Uint8Array).toString("latin1")).not.toContain("hunter2");
    const error = await rejection(client.deserializeResponse(service.operations.crash, response, { endpoint: new URL(served.url), service }));
    expect(String((error as Error).message)).not.toContain(SECRET);
  });

  it("answers an unknown route with the protocol's not-found answer, which the client reads as an error", async () => {
    // The protocol's own request for an operation the server does not know.
    const other = library(p.id);
    const unknown = {
      ...service.operations.crash,
      id: "example.library#Unknown",
      name: "Unknown",
      traits: { http: { method: "POST", uri: "/unknown", code: 200 } },
    };
    const otherService = { ...other, operations: { ...other.operations, unknown } };
    const request = await client.serializeRequest(unknown, {}, { endpoint: new URL(served.url), service: otherService });
    const response = await served.send(request);
    expect(response.status).toBe(404);
    const error = await rejection(client.deserializeResponse(unknown, response, { endpoint: new URL(served.url), service }));
    expect([UnmodeledError.is(error), (error as UnmodeledError).code]).toEqual([true, "UnknownOperationException"]);
  });

  it("S2: inflates a gzip body (Content-Encoding: gzip, as AWS SDKs send large ones), holding it to the body limit", async () => {
    const context = { endpoint: new URL(served.url), service };
    const request = await client.serializeRequest(service.operations.putBook, { ...BOOK, bookId: "zipped" }, context);
    const plain = await readBody(request.body);
    const send = async (body: Uint8Array, encoding?: string) => {
      const headers = new Headers(request.headers);
      if (encoding !== undefined) headers.set("content-encoding", encoding);
      headers.delete("content-length");
      return served.send({ ...request, headers, body });
    };
    const zipped = await send(await gzip(plain), "gzip");
    expect(await client.deserializeResponse(service.operations.putBook, zipped, context)).toEqual({ ...BOOK, bookId: "zipped" });
    // 2 MiB of padding that gzips to a few KB: refused once the inflated body passes the 1 MiB limit, in the protocol's terms.
    const padded = new Uint8Array(plain.length + 2 * 1024 * 1024).fill(0x20);
    padded.set(plain);
    const bomb = await send(await gzip(padded), "gzip");
    expect(bomb.status).toBe(413);
    const error = await rejection(client.deserializeResponse(service.operations.putBook, bomb, context));
    expect((error as UnmodeledError).code).toBe("PayloadTooLargeException");
    // And a body over the limit as sent.
    expect((await send(padded)).status).toBe(413);
  });

  it.skipIf(!p.http2)("does the same round trips over HTTP/2 (h2c)", async () => {
    const session = http2.connect(h2!.url);
    try {
      const call2 = clientFor(service, client, http2Transport(session), h2!.url);
      const calls = await Promise.all([call2(service.operations.putBook, BOOK), call2(service.operations.putBook, { ...BOOK, bookId: "second" })]);
      expect(calls).toEqual([BOOK, { ...BOOK, bookId: "second" }]);
      const error = await rejection(call2(service.operations.getBook, { shelf: "none", bookId: "nope" }));
      expect(errorClass(NoSuchBook).is(error)).toBe(true);
    } finally {
      session.close();
    }
  });
});

/** One call of the agreement suite: the request a client protocol makes, and the operation that reads the answer. */
interface OutcomeCase {
  readonly name: string;
  /** The status both transports must see (the case is what its name says). */
  readonly status: number;
  readonly prepare: (
    client: ClientProtocol,
    service: ReturnType<typeof library>,
    context: ClientCallContext,
  ) => Promise<{ operation: OperationSchema; request: HttpRequest }>;
}

/** A call of an operation of the library. */
const callOf =
  (key: keyof ReturnType<typeof library>["operations"], input: unknown): OutcomeCase["prepare"] =>
  async (client, service, context) => ({ operation: service.operations[key], request: await client.serializeRequest(service.operations[key], input, context) });

/** A `putBook` call whose body is changed on its way out (gzipped, padded), without the length the client gave it. */
const putBookWith =
  (change: (plain: Uint8Array) => Promise<{ body: Uint8Array; encoding?: string }>): OutcomeCase["prepare"] =>
  async (client, service, context) => {
    const operation = service.operations.putBook;
    const request = await client.serializeRequest(operation, { ...BOOK, bookId: "changed" }, context);
    const { body, encoding } = await change(await readBody(request.body));
    const headers = new Headers(request.headers);
    headers.delete("content-length");
    if (encoding !== undefined) headers.set("content-encoding", encoding);
    return { operation, request: { ...request, headers, body } };
  };

/** The body padded with JSON whitespace to 2 MiB more than it was: over the 1 MiB limit. */
const padded = (plain: Uint8Array): Uint8Array => {
  const out = new Uint8Array(plain.length + 2 * 1024 * 1024).fill(0x20);
  out.set(plain);
  return out;
};

const OUTCOME_CASES: readonly OutcomeCase[] = [
  { name: "an output with labels, query, a header, a timestamp, a big integer and a blob", status: 200, prepare: callOf("putBook", BOOK) },
  { name: "an output read back", status: 200, prepare: callOf("getBook", { shelf: BOOK.shelf, bookId: BOOK.bookId }) },
  { name: "a blob output", status: 200, prepare: callOf("getCover", { bookId: BOOK.bookId }) },
  { name: "a modeled error", status: 404, prepare: callOf("getBook", { shelf: "fiction", bookId: "nope" }) },
  { name: "a ValidationException", status: 400, prepare: callOf("putBook", { ...BOOK, shelf: "x".repeat(17), title: "", edition: 100 }) },
  { name: "an unmodeled exception", status: 500, prepare: callOf("crash", {}) },
  {
    name: "an unknown operation",
    status: 404,
    async prepare(client, service, context) {
      const unknown = {
        ...service.operations.crash,
        id: "example.library#Unknown",
        name: "Unknown",
        traits: { http: { method: "POST", uri: "/unknown", code: 200 } },
      };
      const otherService = { ...service, operations: { ...service.operations, unknown } };
      return { operation: unknown, request: await client.serializeRequest(unknown, {}, { ...context, service: otherService }) };
    },
  },
  { name: "a gzip body", status: 200, prepare: putBookWith(async (plain) => ({ body: await gzip(plain), encoding: "gzip" })) },
  {
    name: "a gzip body that inflates past the limit",
    status: 413,
    prepare: putBookWith(async (plain) => ({ body: await gzip(padded(plain)), encoding: "gzip" })),
  },
  { name: "a body over the limit", status: 413, prepare: putBookWith(async (plain) => ({ body: padded(plain) })) },
];

/** Fields of an answer that the HTTP/1.1 connection adds, not the server: the in-memory transport has no connection. */
const CONNECTION_FIELDS = new Set(["connection", "date", "keep-alive", "transfer-encoding"]);

/** What a caller observes of one call: the status, the server's header fields, the body, and the output or the error's class and fields. */
async function outcome(c: OutcomeCase, client: ClientProtocol, service: ReturnType<typeof library>, send: Transport, endpoint: string) {
  const context: ClientCallContext = { endpoint: new URL(endpoint), service };
  const { operation, request } = await c.prepare(client, service, context);
  const response = await send(request);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!CONNECTION_FIELDS.has(name)) headers[name] = value;
  });
  const body = Buffer.from(await readBody(response.body)).toString("base64");
  const result = await client.deserializeResponse(operation, response, context).then(
    (output: unknown) => ({ output }),
    (error: unknown) => {
      const { stack: _stack, cause: _cause, ...fields } = error as Error & Record<string, unknown>;
      return { error: { class: (error as Error).constructor.name, message: (error as Error).message, fields } };
    },
  );
  return { status: response.status, headers, body, result };
}

describe.each(PROTOCOLS)("C6: $id: the in-memory transport answers as an HTTP/1.1 socket does", (p) => {
  const service = library(p.id);
  const { client, server: serverProtocol } = p.make();
  let listener: NodeListener;
  let memory: Transport;

  beforeAll(async () => {
    // One server behind both transports: the same handlers, the same books.
    const server = createServer(service, { protocols: [serverProtocol], onInternalError: () => {} })
      .register(libraryHandlers())
      .mapService();
    listener = await listen(server);
    memory = inMemoryTransport(server, { remoteAddress: "127.0.0.1" });
    await clientFor(service, client, memory, IN_MEMORY_URL)(service.operations.putBook, BOOK);
  });
  afterAll(() => listener.close({ graceMs: 100 }));

  it.each(OUTCOME_CASES)("$name", async (c) => {
    const overSocket = await outcome(c, client, service, fetchTransport(listener.url), listener.url);
    const inMemory = await outcome(c, client, service, memory, IN_MEMORY_URL);
    expect(overSocket.status).toBe(c.status);
    expect(inMemory).toEqual(overSocket);
  });
});

describe.each(PROTOCOLS)("E5: $id client: answers it cannot parse as its protocol", (p) => {
  const service = library(p.id);
  const protocol = p.make();
  const operation = service.operations.getBook;
  /** A client whose every call gets `answer`, tried once. */
  const clientAnswering = (answer: HttpResponse) =>
    createClient(service, { endpoint: "http://127.0.0.1:1", protocols: [protocol], transport: { send: async () => answer }, retry: { maxAttempts: 1 } });
  const getBook = (answer: HttpResponse) =>
    (clientAnswering(answer) as unknown as Record<string, (input: unknown) => Promise<unknown>>).getBook!({ shelf: "fiction", bookId: "b1" });

  it.each([
    [502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>"],
    [413, "text/plain", "Request Entity Too Large"],
    [500, "text/xml", ""],
  ])("%i %s: an UnmodeledError with the status and the body's start, never a SyntaxError", async (status, type, body) => {
    const error = await rejection(getBook({ status, headers: new Headers({ "content-type": type }), body: new TextEncoder().encode(body) }));
    expect([UnmodeledError.is(error), (error as UnmodeledError).$metadata.httpStatus, (error as UnmodeledError).bodyExcerpt]).toEqual([true, status, body]);
  });

  it("200 with its body cut in half: a SerializationError with the status, never a SyntaxError", async () => {
    const whole = await protocol.server.serializeResponse(
      operation,
      { shelf: "fiction", bookId: "b1", title: "A title long enough to cut" },
      { service, labels: {} },
    );
    const bytes = await readBody(whole.body);
    const headers = new Headers(whole.headers);
    headers.delete("content-length");
    const error = await rejection(getBook({ ...whole, headers, body: bytes.subarray(0, bytes.length >> 1) }));
    expect([SerializationError.is(error), (error as SerializationError).$metadata.httpStatus]).toEqual([true, 200]);
  });
});

describe("a server of several protocols", () => {
  // The order the service declares them in: restJson1 first, so it answers requests that bear no protocol's marks.
  const cases = [restJson1(), awsJson1_0(), rpcv2Cbor()];
  let listener: NodeListener;
  beforeAll(async () => {
    const service = { ...library("aws.protocols#restJson1"), protocols: cases.map((c) => c.server.id) };
    listener = await listen(
      createServer(service, { protocols: cases.map((c) => c.server) })
        .register(libraryHandlers())
        .mapService(),
    );
  });
  afterAll(() => listener.close({ graceMs: 0 }));

  it.each([
    ["rpcv2Cbor", 2, "application/cbor"],
    ["awsJson1_0", 1, "application/x-amz-json-1.0"],
  ] as const)("answers a %s call of an unknown operation in that protocol's terms, which its client reads", async (_name, index, contentType) => {
    const p = cases[index]!;
    const service = library(p.server.id);
    const unknown = { ...service.operations.crash, id: "example.library#Unknown", name: "Unknown", traits: {} };
    const otherService = { ...service, operations: { ...service.operations, unknown } };
    const request = await p.client.serializeRequest(unknown, {}, { endpoint: new URL(listener.url), service: otherService });
    const response = await fetchTransport(listener.url)(request);
    expect([response.status, response.headers.get("content-type")]).toEqual([404, contentType]);
    const error = await rejection(p.client.deserializeResponse(unknown, response, { endpoint: new URL(listener.url), service }));
    expect([UnmodeledError.is(error), (error as UnmodeledError).code]).toEqual([true, "UnknownOperationException"]);
  });

  it("answers a request that bears no protocol's marks as the first protocol does", async () => {
    const response = await fetch(`${listener.url}/nowhere`);
    expect([response.status, response.headers.get("content-type")]).toEqual([404, "application/json"]);
  });
});

describe("restJson1: a member bound to Content-Length", () => {
  const MODEL = `$version: "2"
namespace example.objects
use aws.protocols#restJson1
@restJson1
service Objects { operations: [DescribeObject, GetObject, GetEmpty] }
@readonly @http(method: "HEAD", uri: "/objects/{key}")
operation DescribeObject { input := { @required @httpLabel key: String } output := { @httpHeader("Content-Length") length: Long, @httpHeader("Content-Type") type: String } }
@readonly @http(method: "GET", uri: "/objects/{key}")
operation GetObject { input := { @required @httpLabel key: String } output := { @httpHeader("Content-Length") length: Long, @httpPayload body: Data } }
@readonly @http(method: "GET", uri: "/empty/{key}")
operation GetEmpty { input := { @required @httpLabel key: String } output := { @httpHeader("Content-Length") length: Long } }
@streaming blob Data
`;
  let listener: NodeListener;
  beforeAll(async () => {
    const { model } = loadModel({ sources: [{ file: "objects.smithy", text: MODEL }] });
    const service = schemasFromModel(model).service("example.objects#Objects");
    const handlers = {
      describeObject: () => ({ length: 12_345, type: "image/png" }),
      getObject: ({ key }: { key: string }) => ({
        ...(key === "sized" ? { length: 10 } : key === "short" ? { length: 4 } : key === "long" ? { length: 12 } : {}),
        body: (async function* () {
          yield new TextEncoder().encode("01234");
          yield new TextEncoder().encode("56789");
        })(),
      }),
      // A GET answers with its body: a bound length that is not the body's cannot stand.
      getEmpty: () => ({ length: 99 }),
    };
    listener = await listen(
      createServer(service, { protocols: [restJson1().server] })
        .register(handlers as never)
        .mapService(),
    );
  });
  afterAll(() => listener.close({ graceMs: 0 }));

  it("tells a HEAD answer's length: the resource's, with no body", async () => {
    const response = await fetch(`${listener.url}/objects/a`, { method: "HEAD" });
    expect([response.status, response.headers.get("content-length"), response.headers.get("content-type")]).toEqual([200, "12345", "image/png"]);
  });

  it("sends a streamed body with the length the handler gave, else chunked", async () => {
    const sized = await fetch(`${listener.url}/objects/sized`);
    expect([sized.headers.get("content-length"), sized.headers.get("transfer-encoding"), await sized.text()]).toEqual(["10", null, "0123456789"]);
    const unsized = await fetch(`${listener.url}/objects/other`);
    expect([unsized.headers.get("content-length"), unsized.headers.get("transfer-encoding"), await unsized.text()]).toEqual([null, "chunked", "0123456789"]);
  });

  it("cuts off a streamed body that does not match the length the handler gave, closing the connection, so nothing after it is misread", async () => {
    /** What a keep-alive connection receives for one GET: the declared length, the body bytes, and whether the server closed it. */
    const raw = (key: string) =>
      new Promise<{ declared: number; body: number; closed: boolean }>((resolve) => {
        const socket = net.connect(Number(new URL(listener.url).port), "127.0.0.1", () => socket.write(`GET /objects/${key} HTTP/1.1\r\nhost: x\r\n\r\n`));
        let text = "";
        const done = (closed: boolean) => {
          clearTimeout(timer);
          socket.destroy();
          const [head = "", ...rest] = text.split("\r\n\r\n");
          resolve({ declared: Number(/content-length: (\d+)/i.exec(head)?.[1]), body: rest.join("\r\n\r\n").length, closed });
        };
        const timer = setTimeout(() => done(false), 500);
        socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
        socket.on("close", () => done(true));
        socket.on("error", () => done(true));
      });
    // Longer than declared: never more bytes than declared (here, the answer fails before its head goes out), and the connection closes.
    const long = await raw("short");
    expect(Number.isNaN(long.declared) ? long.body === 0 : long.body <= long.declared).toBe(true);
    expect(long.closed).toBe(true);
    // Shorter than declared: the connection closes, so the peer does not wait for bytes that never come.
    const short = await raw("long");
    expect(short.closed).toBe(true);
    // A body of the declared length keeps the connection open.
    expect(await raw("sized")).toEqual({ declared: 10, body: 10, closed: false });
  });

  it("gives a GET answer the length of the body it sends", async () => {
    const response = await fetch(`${listener.url}/empty/a`);
    expect([response.status, response.headers.get("content-length"), await response.text()]).toEqual([200, "2", "{}"]);
  });
});
