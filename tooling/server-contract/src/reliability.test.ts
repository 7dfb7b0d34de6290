/**
 * The reliability checklist (RELIABILITY.md), probed the way a user or an
 * attacker would: against `anvil serve --fake` on the example's model, over
 * real sockets. Each test is named after its checklist ID.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as http2 from "node:http2";
import * as net from "node:net";
import { fileURLToPath } from "node:url";
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
