/**
 * The reliability checklist (RELIABILITY.md), probed the way a user or an
 * attacker would: against `anvil serve --fake` on the example's model, over
 * real sockets. Each test is named after its checklist ID.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as http2 from "node:http2";
import * as net from "node:net";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { startFakeServe } from "@anvil/codegen";
import { loadModel } from "@anvil/model";
import { frameMessage } from "@anvil/protocol-grpc/wire";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MODEL = fileURLToPath(new URL("../../../apps/example/model/", import.meta.url));
const CLI = fileURLToPath(new URL("../../../packages/codegen/dist/cli.js", import.meta.url));

/** `anvil serve --fake` on the example's model, in a process of its own, as a user (or a prober) runs it. */
let serve: ChildProcess;
/** Weather's port: restJson1, awsJson1_1 and rpcv2Cbor. */
let weather: string;
/** WeatherGrpc's port (h2c). */
let weatherGrpc: string;

beforeAll(async () => {
  serve = spawn(process.execPath, [CLI, "serve", "--model", MODEL, "--fake", "--port", "0", "--grpc-port", "0", "--no-docs"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const urls = new Map<string, string>();
  let out = "";
  await new Promise<void>((resolve, reject) => {
    serve.once("exit", (code) => reject(new Error(`anvil serve exited (${code}) before it was ready:\n${out}`)));
    serve.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const [, id, url] of out.matchAll(/^(\S+#\S+) \(.*\)\s+(http:\/\/\S+)$/gm)) urls.set(id!, url!);
      if (out.includes("Ctrl-C stops")) resolve();
    });
  });
  serve.stdout!.resume();
  weather = urls.get("example.weather#Weather")!;
  weatherGrpc = urls.get("example.weather#WeatherGrpc")!;
});
afterAll(async () => {
  const exited = new Promise((resolve) => serve.once("exit", resolve));
  serve.kill("SIGTERM");
  await exited;
});

describe("protocol strictness", () => {
  it("S8: rpcv2Cbor refuses requests carrying X-Amz-Target or X-Amzn-Target", async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${weather}/service/Weather/operation/GetCity`, {
        method: "POST",
        headers: { "smithy-protocol": "rpc-v2-cbor", "content-type": "application/cbor", accept: "application/cbor", ...headers },
        // {"cityId": "seattle"}: a map of one pair, two text strings.
        body: new Uint8Array([0xa1, 0x66, ...Buffer.from("cityId"), 0x67, ...Buffer.from("seattle")]),
      });
    expect((await call({})).status).toBe(200);
    for (const name of ["X-Amz-Target", "X-Amzn-Target"]) {
      const refused = await call({ [name]: "Weather.GetCity" });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("smithy-protocol")).toBe("rpc-v2-cbor");
    }
  });

  it("E2: awsJson1_1 refuses a body of another media type with a 415", async () => {
    const call = (contentType: string) =>
      fetch(weather, { method: "POST", headers: { "x-amz-target": "Weather.GetCity", "content-type": contentType }, body: '{"cityId":"seattle"}' });
    expect((await call("application/x-amz-json-1.1")).status).toBe(200);
    expect((await call("application/json; charset=utf-8")).status).toBe(200);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/cbor"]) {
      const refused = await call(type);
      expect([type, refused.status, ((await refused.json()) as { __type?: string }).__type]).toEqual([type, 415, "UnsupportedMediaTypeException"]);
    }
  });
});

/** What a raw gRPC exchange ended with: the response head, the body's bytes and the trailers (or the reset). */
interface GrpcExchange {
  readonly headers: http2.IncomingHttpHeaders;
  readonly trailers: http2.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly ms: number;
}

/** GetCity's input, `{ cityId: "seattle" }`: field 1, length-delimited. */
const GET_SEATTLE = Buffer.from([0x0a, 0x07, ...Buffer.from("seattle")]);

/** Sends one gRPC request on a fresh connection; `body` is written and the stream ended unless `keepOpen`. */
function grpcCall(path: string, headers: Record<string, string>, body: Uint8Array, keepOpen = false): Promise<GrpcExchange> {
  const started = Date.now();
  const session = http2.connect(weatherGrpc);
  session.on("error", () => {});
  return new Promise<GrpcExchange>((resolve, reject) => {
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...headers });
    let head: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => (head = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("close", () => {
      session.close();
      resolve({ headers: head, trailers, body: Buffer.concat(chunks), ms: Date.now() - started });
    });
    if (body.byteLength > 0) stream.write(body);
    if (!keepOpen && !stream.writableEnded) stream.end();
  });
}

/** The call's gRPC status: from the trailers, or from the head of a trailers-only answer. */
const statusOf = (exchange: GrpcExchange) => Number(exchange.trailers["grpc-status"] ?? exchange.headers["grpc-status"]);

describe("gRPC requests that cannot be served", () => {
  it("S3: a message prefix announcing 2^31 bytes on a stream left open is refused at once with RESOURCE_EXHAUSTED", async () => {
    const prefix = Buffer.from([0, 0x80, 0, 0, 0]);
    const answer = await grpcCall("/example.weather.WeatherGrpc/GetCity", {}, prefix, true);
    expect(statusOf(answer)).toBe(8); // RESOURCE_EXHAUSTED
    expect(answer.ms).toBeLessThan(2_000);
  });

  it("E3: unknown service or method, wrong verb, another subtype, an unknown grpc-encoding: UNIMPLEMENTED, and answers say grpc-accept-encoding", async () => {
    const ok = await grpcCall("/example.weather.WeatherGrpc/GetCity", {}, frameMessage(GET_SEATTLE));
    expect(statusOf(ok)).toBe(0);
    expect(ok.headers["grpc-accept-encoding"]).toBe("identity, gzip");
    for (const [what, path, headers] of [
      ["unknown service", "/example.weather.Nope/GetCity", {}],
      ["unknown method", "/example.weather.WeatherGrpc/Nope", {}],
      ["application/grpc+foo", "/example.weather.WeatherGrpc/GetCity", { "content-type": "application/grpc+foo" }],
      ["unknown grpc-encoding", "/example.weather.WeatherGrpc/GetCity", { "grpc-encoding": "snappy" }],
    ] as const) {
      const answer = await grpcCall(path, headers, frameMessage(GET_SEATTLE));
      expect([what, answer.headers[":status"], statusOf(answer)]).toEqual([what, 200, 12]); // UNIMPLEMENTED
      expect([what, answer.headers["grpc-accept-encoding"]]).toEqual([what, "identity, gzip"]);
    }
    // A gRPC path with another verb: HTTP's 405 with Allow: POST (and UNIMPLEMENTED for gRPC clients).
    const get = await grpcCall("/example.weather.WeatherGrpc/GetCity", { ":method": "GET" }, new Uint8Array(0));
    expect([get.headers[":status"], get.headers.allow, statusOf(get)]).toEqual([405, "POST", 12]);
  });
});

describe("HTTP/2 sessions", () => {
  /** A session to a port, once the server's settings are in. */
  async function connect(url: string): Promise<http2.ClientHttp2Session> {
    const session = http2.connect(url);
    session.on("error", () => {});
    await new Promise((resolve) => session.once("remoteSettings", resolve));
    return session;
  }

  it("H1: both the REST port (h2c) and the gRPC port advertise 100 concurrent streams", async () => {
    for (const url of [weather, weatherGrpc]) {
      const session = await connect(url);
      expect([url, session.remoteSettings.maxConcurrentStreams]).toEqual([url, 100]);
      session.destroy();
    }
  });

  it("H4: a PING every 10 ms on an idle gRPC connection gets GOAWAY ENHANCE_YOUR_CALM with too_many_pings", async () => {
    const session = await connect(weatherGrpc);
    const pinger = setInterval(() => {
      if (!session.closed && !session.destroyed) session.ping(() => {});
    }, 10);
    try {
      const { code, data } = await new Promise<{ code: number; data: string }>((resolve) =>
        session.once("goaway", (code: number, _last: number, data?: Buffer) => resolve({ code, data: data?.toString() ?? "" })),
      );
      expect([code, data]).toEqual([http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, "too_many_pings"]);
    } finally {
      clearInterval(pinger);
      session.destroy();
    }
  });
});

describe("timeouts", () => {
  it("T3: grpc-timeout beyond setTimeout's range (2147484S, 99999999H) is a deadline far away, not an expired one", async () => {
    for (const timeout of ["2147484S", "99999999H"]) {
      const answer = await grpcCall("/example.weather.WeatherGrpc/GetCity", { "grpc-timeout": timeout }, frameMessage(GET_SEATTLE));
      expect([timeout, statusOf(answer)]).toEqual([timeout, 0]);
    }
  });
});

describe("fakes", () => {
  const STORE = `
$version: "2.0"
namespace test.store
use aws.protocols#restJson1

@restJson1
service Store { version: "1", operations: [GetObject, GetText] }

@streaming
blob Body

@readonly
@http(method: "GET", uri: "/objects/{key}")
@examples([{ title: "hello", input: { key: "hello" }, output: { body: "aGVsbG8=", contentLength: 999 } }])
operation GetObject {
    input := { @required @httpLabel key: String }
    output := {
        @httpPayload body: Body
        @httpHeader("Content-Length") contentLength: Long
    }
}

@readonly
@http(method: "GET", uri: "/texts/{key}")
@examples([{ title: "note", input: { key: "note" }, output: { text: "héllo", contentLength: 1 } }])
operation GetText {
    input := { @required @httpLabel key: String }
    output := {
        @httpPayload text: String
        @httpHeader("Content-Length") contentLength: Long
    }
}
`;

  it("a Content-Length member states the body actually sent (example or synthesized), so downloads are not cut", async () => {
    const store = await startFakeServe(loadModel({ sources: [{ file: "store.smithy", text: STORE }] }).model, {
      port: 0,
      grpcPort: 0,
      docs: false,
      health: false,
    });
    try {
      const url = store.listening[0]!.url;
      const hello = await fetch(`${url}/objects/hello`);
      expect([hello.status, hello.headers.get("content-length"), await hello.text()]).toEqual([200, "5", "hello"]);
      const note = await fetch(`${url}/texts/note`);
      expect([note.status, note.headers.get("content-length"), await note.text()]).toEqual([200, "6", "héllo"]);
      // No example: a synthesized body, whose length the header states too.
      const other = await fetch(`${url}/objects/other`);
      const body = new Uint8Array(await other.arrayBuffer());
      expect(other.status).toBe(200);
      expect(other.headers.get("content-length") ?? String(body.byteLength)).toBe(String(body.byteLength));
    } finally {
      await store.close(100);
    }
  });
});

describe("body limits", () => {
  /** Sends a request head declaring `size` bytes and, at once, all of them; resolves with what came back before the connection ended. */
  function upload(url: string, path: string, size: number): Promise<string> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname);
      const received: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => received.push(chunk));
      socket.on("error", () => {}); // a reset (EPIPE, ECONNRESET): what came before it is the answer
      socket.on("close", () => resolve(Buffer.concat(received).toString("latin1")));
      socket.write(`PUT ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`);
      socket.write(Buffer.alloc(size, 0x20));
    });
  }

  it("S1: a body over the limit gets its 413, even from a client that keeps writing (the upload is drained, bounded, not reset)", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload(weather, "/cities", 5 * 1024 * 1024)));
    for (const answer of answers) expect(answer.slice(0, 12)).toBe("HTTP/1.1 413");
  });
});

describe("input size and parsing", () => {
  /** Writes `head` (a whole HTTP/1.1 request head) on a new connection; resolves with the status line of the answer. */
  function rawStatus(url: string, head: string): Promise<string> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname);
      let received = "";
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("latin1");
        if (received.includes("\r\n")) socket.destroy();
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve(received.split("\r\n")[0]!));
      socket.write(head);
    });
  }

  /** `anvil serve`'s peak resident memory so far (Linux's VmHWM), in bytes; undefined where /proc has none. */
  function peakRss(): number | undefined {
    try {
      const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${serve.pid}/status`, "utf8"))?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  it("S2: a gzip bomb (100 KiB inflating to 100 MiB) is refused once inflated past the limit: 413 over HTTP, RESOURCE_EXHAUSTED over gRPC, never held whole", async () => {
    const bomb = gzipSync(Buffer.alloc(100 * 1024 * 1024));
    expect(bomb.byteLength).toBeLessThan(110 * 1024);
    const before = peakRss();
    const http = await fetch(`${weather}/cities`, { method: "PUT", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: bomb });
    expect([http.status, http.headers.get("x-amzn-errortype"), await http.text()]).toEqual([
      413,
      "PayloadTooLargeException",
      '{"message":"request body is larger than 1048576 bytes once decompressed"}',
    ]);
    // The compressed flag set, under grpc-encoding: gzip.
    const compressed = frameMessage(bomb);
    compressed[0] = 1;
    const grpc = await grpcCall("/example.weather.WeatherGrpc/CreateCity", { "grpc-encoding": "gzip" }, compressed);
    expect(statusOf(grpc)).toBe(8); // RESOURCE_EXHAUSTED
    // Inflated no further than the limit (4 MiB for gRPC, 1 MiB over HTTP): the peak grows by less than that and 16 MiB.
    const after = peakRss();
    if (before !== undefined && after !== undefined) expect(after - before).toBeLessThan(20 * 1024 * 1024);
    expect(statusOf(await grpcCall("/example.weather.WeatherGrpc/GetCity", {}, frameMessage(GET_SEATTLE)))).toBe(0);
  });

  it("S4: a 20 KiB header and 2 100 header fields each get a 431 over HTTP/1.1 (never a silent truncation), and the server stays up", async () => {
    const get = (fields: string) => rawStatus(weather, `GET /cities/seattle HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${fields}\r\n`);
    expect(await get(`x-big: ${"v".repeat(20 * 1024)}\r\n`)).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    // Node would hand the handler the first 2 000 of them; the listener refuses more than 100 instead.
    expect(await get("x-f: v\r\n".repeat(2_100))).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(await get("")).toBe("HTTP/1.1 200 OK");
  });

  it("S4: over HTTP/2, a 70 KiB header list ends its own stream, while a sibling stream on the session is answered and the session goes on", async () => {
    // Node's client would refuse to send a header block over 64 000 bytes itself.
    const session = http2.connect(weather, { maxSendHeaderBlockLength: 1 << 20 });
    session.on("error", () => {});
    // The server's SETTINGS (16 KiB of headers) bind once acknowledged; before, Node's defaults let about 100 KiB in.
    await new Promise((resolve) => session.once("remoteSettings", resolve));
    const get = (headers: http2.OutgoingHttpHeaders) =>
      new Promise<string>((resolve) => {
        const stream = session.request({ ":method": "GET", ":path": "/cities/seattle", ...headers });
        let status: string | undefined;
        stream.on("response", (head) => (status = String(head[":status"])));
        stream.on("error", () => {});
        stream.on("close", () => resolve(status ?? `reset ${stream.rstCode}`));
        stream.resume();
      });
    try {
      const big = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`x-big-${i}`, "v".repeat(1024)]));
      const [refused, sibling] = await Promise.all([get(big), get({})]);
      expect(["431", `reset ${http2.constants.NGHTTP2_ENHANCE_YOUR_CALM}`, `reset ${http2.constants.NGHTTP2_REFUSED_STREAM}`]).toContain(refused);
      expect(sibling).toBe("200");
      expect(await get({})).toBe("200");
    } finally {
      session.destroy();
    }
  });

  it("S7: 100 000 nested arrays (JSON, CBOR) and protobuf groups nested 10 000 deep are refused at once, 400 or INVALID_ARGUMENT, and the server stays up", async () => {
    const deep = 100_000;
    const arrays = `${"[".repeat(deep)}${"]".repeat(deep)}`;
    const cborArrays = new Uint8Array(deep).fill(0x81); // arrays of one element, nested, around a 0
    cborArrays[deep - 1] = 0;
    const timed = async <T>(call: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      const result = await call();
      // Refused on the way in; the bound only needs to catch a decoder that walks (or recurses through) it all.
      expect(Date.now() - started).toBeLessThan(2_000);
      return result;
    };
    const json = (body: string) => timed(() => fetch(`${weather}/cities`, { method: "PUT", headers: { "content-type": "application/json" }, body }));
    // ReportObservation's payload, whose `extras` is a document: nested as deep as the sender likes, but for the cap.
    const observation = (extras: string) =>
      timed(() =>
        fetch(`${weather}/cities/paris/observations`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-station-id": "PAR-01" },
          body: `{"temperatureC":21.5,"sky":"CLEAR","extras":${extras}}`,
        }),
      );
    const awsJson = (body: string) =>
      timed(() => fetch(weather, { method: "POST", headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "Weather.CreateCity" }, body }));
    const cbor = (body: Uint8Array<ArrayBuffer>) =>
      timed(() =>
        fetch(`${weather}/service/Weather/operation/CreateCity`, {
          method: "POST",
          headers: { "smithy-protocol": "rpc-v2-cbor", "content-type": "application/cbor", accept: "application/cbor" },
          body,
        }),
      );
    for (const [what, answer] of [
      ["restJson1, the whole body", await json(arrays)],
      ["restJson1, in a structure member", await json(`{"coordinates":${arrays}}`)],
      ["restJson1, in a document", await observation(`{"deep":${arrays}}`)],
      ["awsJson1_1, in a structure member", await awsJson(`{"coordinates":${arrays}}`)],
      ["rpcv2Cbor, the whole body", await cbor(cborArrays)],
      ["rpcv2Cbor, in a structure member", await cbor(new Uint8Array([0xa1, 0x6b, ...Buffer.from("coordinates"), ...cborArrays]))],
    ] as const) {
      expect([what, answer.status]).toEqual([what, 400]);
    }
    // Field 15, wire type 3 (start group), 10 000 times, then as many ends: unknown groups are skipped, to a depth of 100.
    const groups = new Uint8Array([...new Uint8Array(10_000).fill(0x7b), ...new Uint8Array(10_000).fill(0x7c)]);
    const grpc = await timed(() => grpcCall("/example.weather.WeatherGrpc/GetCity", {}, frameMessage(groups)));
    expect(statusOf(grpc)).toBe(3); // INVALID_ARGUMENT
    expect((await fetch(`${weather}/cities/seattle`)).status).toBe(200);
  });

  it("S10: a bad percent-escape in a label or the query is a 400 (not a 500); a 10 000-character label is a 400 at once", async () => {
    for (const path of ["/cities/%E0%A4%A", "/cities/%ZZ", "/cities/%E0%A4", "/cities?nextToken=%E0%A4%A"]) {
      const answer = await fetch(`${weather}${path}`);
      expect([path, answer.status, answer.headers.get("x-amzn-errortype")]).toEqual([path, 400, "SerializationException"]);
    }
    const started = Date.now();
    const long = await fetch(`${weather}/cities/${"a".repeat(10_000)}`);
    expect([long.status, long.headers.get("x-amzn-errortype")]).toEqual([400, "ValidationException"]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("media types", () => {
  it("E6: a media type's parameters and case do not matter; another type (application/hal+json) is a 415", async () => {
    const city = JSON.stringify({ name: "Lisbon", country: "PT", coordinates: { latitude: 38.7, longitude: -9.1 } });
    const createCity = (contentType: string) => fetch(`${weather}/cities`, { method: "PUT", headers: { "content-type": contentType }, body: city });
    for (const type of ["application/json; charset=UTF-8", "Application/JSON", "APPLICATION/JSON ; charset=utf-8"]) {
      expect([type, (await createCity(type)).status]).toEqual([type, 201]);
    }
    const hal = await createCity("application/hal+json");
    expect([hal.status, hal.headers.get("x-amzn-errortype")]).toEqual([415, "UnsupportedMediaTypeException"]);
    const getCity = (contentType: string) =>
      fetch(weather, { method: "POST", headers: { "x-amz-target": "Weather.GetCity", "content-type": contentType }, body: '{"cityId":"seattle"}' });
    expect((await getCity("Application/X-Amz-Json-1.1; charset=UTF-8")).status).toBe(200);
    const cbor = await fetch(`${weather}/service/Weather/operation/GetCity`, {
      method: "POST",
      headers: { "smithy-protocol": "rpc-v2-cbor", "content-type": "Application/CBOR; foo=bar", accept: "application/cbor" },
      body: new Uint8Array([0xa1, 0x66, ...Buffer.from("cityId"), 0x67, ...Buffer.from("seattle")]),
    });
    expect(cbor.status).toBe(200);
  });
});

describe("shutdown", () => {
  it("L1: a gRPC call still sending its message when the grace period ends gets UNAVAILABLE, not a reset", async () => {
    const fake = await startFakeServe(loadModel({ paths: [MODEL] }).model, { port: 0, grpcPort: 0, docs: false });
    const url = fake.listening.find((l) => l.service === "example.weather#WeatherGrpc")!.url;
    const session = http2.connect(url);
    session.on("error", () => {});
    await new Promise((resolve) => session.once("remoteSettings", resolve));
    const stream = session.request({ ":method": "POST", ":path": "/example.weather.WeatherGrpc/GetCity", "content-type": "application/grpc", te: "trailers" });
    stream.on("error", () => {});
    const status = new Promise<string | undefined>((resolve) => {
      let head: http2.IncomingHttpHeaders = {};
      stream.on("response", (headers) => (head = headers));
      stream.on("trailers", (trailers) => (head = { ...head, ...trailers }));
      stream.on("close", () => resolve(head["grpc-status"] === undefined ? `http ${head[":status"]}` : String(head["grpc-status"])));
      stream.resume();
    });
    stream.write(frameMessage(GET_SEATTLE).subarray(0, 6)); // the prefix and one byte of nine
    // A PING's answer comes after the server has read what was sent before it: the call is in flight.
    await new Promise((resolve) => session.ping(resolve));
    await fake.close(100);
    // UNAVAILABLE, or a 503 that gRPC clients read as UNAVAILABLE.
    expect(["14", "http 503"]).toContain(await status);
    session.destroy();
  });
});
