import * as http2 from "node:http2";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClient, httpBearerAuth } from "@anvil/client-core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { grpc, HealthService } from "@anvil/protocol-grpc";
import { parseArgs } from "./args.js";
import { readFileSync, writeFileSync } from "node:fs";
import { PACKAGE_ROOT, scratchDir } from "./generate/test-support.js";
import { serveCommand } from "./serve-command.js";

const ZOO_MODEL = join(PACKAGE_ROOT, "..", "fakes", "src", "__fixtures__", "zoo.smithy");

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

/** A reflection `list_services` call over HTTP/2, by hand: the answer's message bytes. */
async function reflectionCall(url: string): Promise<Uint8Array> {
  const session = http2.connect(url);
  try {
    const stream = session.request({
      ":method": "POST",
      ":path": "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
      "content-type": "application/grpc",
      te: "trailers",
    });
    // One length-prefixed message: ServerReflectionRequest { list_services = 7: "" }.
    stream.end(Buffer.from([0, 0, 0, 0, 2, 0x3a, 0]));
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).subarray(5);
  } finally {
    session.close();
  }
}

describe("anvil serve", () => {
  it("serves the model's fakes, logs each call with its protocol and answer, and stops cleanly", async () => {
    const { out, io: sink } = io();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = serveCommand(parseArgs(["serve", "--model", ZOO_MODEL, "--fake", "--service", "example.fakes#Zoo", "--port", "0"]), sink, () => stopped);
    await expect.poll(() => out.some((l) => l.includes("Ctrl-C stops"))).toBe(true);
    const url = /(http:\/\/\S+)/.exec(out.find((l) => l.startsWith("example.fakes#Zoo"))!)![1]!;
    const response = await fetch(`${url}/animals/lion`);
    expect(response.status).toBe(200);
    const invalid = await fetch(`${url}/feed`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-amzn-errortype")).toBe("ValidationException");
    // The documentation routes come with the fake: the OpenAPI document of the service and the reference site.
    expect(out).toContain(`  explorer ${url}/openapi   reference ${url}/docs/`);
    const openapi = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown>; servers: { url: string }[] };
    expect(Object.keys(openapi.paths)).toContain("/animals/{name}");
    expect(openapi.servers[0]!.url).toBe(url);
    expect((await fetch(`${url}/docs/`)).headers.get("content-type")).toContain("text/html");
    // Liveness and readiness next to them, and a request id on every answer.
    expect(out).toContain(`  health   ${url}/healthz   ready ${url}/readyz`);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: "ready" });
    expect(response.headers.get("x-amzn-requestid")).toMatch(/^[0-9a-f-]{36}$/);
    stop();
    expect(await running).toBe(0);
    expect(out).toContain('Zoo.getAnimal via aws.protocols#restJson1: example "lion"');
    // The access log: a line per request, with its status, operation, protocol and request id.
    const requestId = response.headers.get("x-amzn-requestid")!;
    expect(out).toContainEqual(
      expect.stringMatching(
        new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+ 127\\.0\\.0\\.1 GET /animals/lion 200 [\\d.]+ms Zoo\\.getAnimal aws\\.protocols#restJson1 id=${requestId}$`),
      ),
    );
    expect(out).toContainEqual(expect.stringMatching(/ POST \/feed 400 [\d.]+ms Zoo\.feedAnimal aws\.protocols#restJson1 error=ValidationException id=/));
    // Validation answered before the fake ran: the log says so.
    expect(out.filter((l) => l.startsWith("Zoo.feedAnimal"))).toEqual([
      expect.stringMatching(/^Zoo\.feedAnimal via aws\.protocols#restJson1: rejected \(\d validation errors?: .+\)$/),
    ]);
    expect(out.at(-1)).toBe("stopping…");
  });

  it("with --json-logs, writes one JSON object per line on stdout, and its notes on stderr", async () => {
    const { out, err, io: sink } = io();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const args = ["serve", "--model", ZOO_MODEL, "--fake", "--service", "example.fakes#Zoo", "--port", "0", "--json-logs"];
    const running = serveCommand(parseArgs(args), sink, () => stopped);
    await expect.poll(() => err.some((l) => l.includes("Ctrl-C stops"))).toBe(true);
    const url = /(http:\/\/\S+)/.exec(err.find((l) => l.startsWith("example.fakes#Zoo"))!)![1]!;
    const response = await fetch(`${url}/animals/lion`, { headers: { "x-request-id": "trace-7" } });
    expect(response.status).toBe(200);
    await fetch(`${url}/feed`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    stop();
    expect(await running).toBe(0);
    const lines = out.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual({
      time: expect.any(String),
      msg: "fake answered",
      service: "example.fakes#Zoo",
      operation: "getAnimal",
      protocol: "aws.protocols#restJson1",
      source: 'example "lion"',
      modeledError: false,
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        service: "example.fakes#Zoo",
        operation: "getAnimal",
        method: "GET",
        path: "/animals/lion",
        status: 200,
        requestId: "trace-7",
        remoteAddress: "127.0.0.1",
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ msg: "rejected", operation: "feedAnimal", reason: expect.stringMatching(/validation error/) }));
    expect(lines).toContainEqual(expect.objectContaining({ operation: "feedAnimal", status: 400, error: "ValidationException" }));
    expect(err.at(-1)).toBe("stopping…");
  });

  it.each([
    [["serve", "--model", ZOO_MODEL], 2, "pass --fake"],
    [["serve", "--fake"], 2, "no model given"],
    [["serve", "--model", ZOO_MODEL, "--fake", "--port", "http"], 2, "--port must be a port number"],
    [["serve", "--model", ZOO_MODEL, "--fake", "--service", "example.fakes#Nope"], 1, "no service `example.fakes#Nope`"],
    [["serve", "--model", ZOO_MODEL, "--fake", "--body-limit", "lots"], 2, "--body-limit must be a size in bytes"],
    [["serve", "--model", ZOO_MODEL, "--fake", "--body-limit", "0"], 2, "--body-limit must be a size in bytes"],
    [["serve", "--model", ZOO_MODEL, "--fake", "--basic", "nocolon"], 2, "--basic takes USER:PASS"],
    [["serve", "--model", ZOO_MODEL, "--fake", "--sigv4", "AKID"], 2, "--sigv4 takes AKID:SECRET"],
  ])("refuses %j with exit %i", async (argv, code, message) => {
    const { err, io: sink } = io();
    expect(await serveCommand(parseArgs(argv), sink, () => Promise.resolve())).toBe(code);
    expect(err.join("\n")).toContain(message);
  });

  it("answers HTTP/2 clients with prior knowledge on the HTTP port too (the AWS SDKs' HTTP/2 handler)", async () => {
    const { out, io: sink } = io();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = serveCommand(
      parseArgs(["serve", "--model", ZOO_MODEL, "--fake", "--service", "example.fakes#Zoo", "--port", "0", "--no-docs"]),
      sink,
      () => stopped,
    );
    await expect.poll(() => out.some((l) => l.includes("Ctrl-C stops"))).toBe(true);
    const url = /(http:\/\/\S+)/.exec(out.find((l) => l.startsWith("example.fakes#Zoo"))!)![1]!;
    const session = http2.connect(url);
    try {
      const [status, body] = await new Promise<[number, string]>((resolve, reject) => {
        const stream = session.request({ ":method": "GET", ":path": "/animals/lion" });
        let status = 0;
        let body = "";
        stream.on("response", (headers) => (status = Number(headers[":status"])));
        stream.on("data", (d: Buffer) => (body += d.toString()));
        stream.on("end", () => resolve([status, body]));
        stream.on("error", reject);
      });
      expect(status).toBe(200);
      expect(JSON.parse(body)).toMatchObject({ animal: { name: "lion" } });
    } finally {
      session.close();
    }
    stop();
    expect(await running).toBe(0);
  });

  it("takes request bodies up to --body-limit (k and m for KiB and MiB), answering 413 beyond it", async () => {
    const { out, io: sink } = io();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = serveCommand(
      parseArgs(["serve", "--model", ZOO_MODEL, "--fake", "--service", "example.fakes#Zoo", "--port", "0", "--no-docs", "--body-limit", "1k"]),
      sink,
      () => stopped,
    );
    await expect.poll(() => out.some((l) => l.includes("Ctrl-C stops"))).toBe(true);
    const url = /(http:\/\/\S+)/.exec(out.find((l) => l.startsWith("example.fakes#Zoo"))!)![1]!;
    const post = (size: number) =>
      fetch(`${url}/feed`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"pad":"${"x".repeat(size)}"}` });
    expect((await post(900)).status).toBe(400); // read, and refused by validation
    expect((await post(1100)).status).toBe(413);
    stop();
    expect(await running).toBe(0);
  });

  it("names the file, line and column of a model error", async () => {
    const file = join(scratchDir("serve-bad"), "bad.smithy");
    writeFileSync(file, `$version: "2.0"\nnamespace test.bad\nstructure S {\n  a: Missing\n}\n`);
    const { err, io: sink } = io();
    expect(await serveCommand(parseArgs(["serve", "--model", file, "--fake"]), sink, () => Promise.resolve())).toBe(1);
    expect(err.join("\n")).toMatch(/bad\.smithy:4:\d+: error: .*Missing/);
  });

  it("warns once about an example of the wrong type, where it is, and says the fake leaves it out", async () => {
    const file = join(scratchDir("serve-example"), "ex.smithy");
    writeFileSync(
      file,
      `$version: "2"\nnamespace test.ex\nuse aws.protocols#restJson1\n@restJson1\nservice S { version: "1", operations: [Get] }\n` +
        `@http(method: "GET", uri: "/x")\n@readonly\n@examples([{ title: "one", output: { n: "many" } }])\noperation Get { output := { n: Integer } }\n`,
    );
    const { err, io: sink } = io();
    expect(await serveCommand(parseArgs(["serve", "--model", file, "--fake", "--port", "0", "--no-docs"]), sink, () => Promise.resolve())).toBe(0);
    expect(err.filter((l) => l.includes("many"))).toEqual([
      expect.stringMatching(/^.*ex\.smithy:9:1: warning: Example "one": output at n: .*`many` \(test\.ex#Get\) \[ExamplesTrait\]$/),
    ]);
    expect(err).toContain('note: the fake of `test.ex#Get` leaves example "one" out (the ExamplesTrait warning on the operation says why)');

    // With the model's warning suppressed, the fake's own says it all, once.
    const suppressed = join(scratchDir("serve-example-suppressed"), "ex.smithy");
    writeFileSync(
      suppressed,
      readFileSync(file, "utf8").replace(`$version: "2"\n`, `$version: "2"\nmetadata suppressions = [{ id: "ExamplesTrait", namespace: "*" }]\n`),
    );
    const quiet = io();
    expect(await serveCommand(parseArgs(["serve", "--model", suppressed, "--fake", "--port", "0", "--no-docs"]), quiet.io, () => Promise.resolve())).toBe(0);
    expect(quiet.err.filter((l) => l.includes("many"))).toEqual([
      'warning: @examples of `test.ex#Get` ("one") output at n: Expected number value for integer shape, `smithy.api#Integer`; found string value, `many`: the fake leaves it out',
    ]);
  });

  it("serves a gRPC service's fake over gRPC (h2c, --grpc-port) next to its HTTP protocols", async () => {
    const file = join(scratchDir("serve-grpc"), "grpc.smithy");
    writeFileSync(
      file,
      `$version: "2.0"
namespace test.grpc
use alloy.proto#grpc
use alloy.proto#protoIndex
use aws.protocols#restJson1
@restJson1
@grpc
service Both { version: "1", operations: [Hello] }
@http(method: "GET", uri: "/hello")
operation Hello { output := { @required @protoIndex(1) greeting: String } }
`,
    );
    const { out, io: sink } = io();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = serveCommand(parseArgs(["serve", "--model", file, "--fake", "--port", "0", "--grpc-port", "0"]), sink, () => stopped);
    await expect.poll(() => out.some((l) => l.includes("Ctrl-C stops"))).toBe(true);
    const url = /(http:\/\/\S+)/.exec(out.find((l) => l.startsWith("test.grpc#Both (aws.protocols#restJson1)"))!)![1]!;
    expect(await (await fetch(`${url}/hello`)).json()).toEqual({ greeting: "greeting" });
    const grpcUrl = /(http:\/\/\S+)/.exec(out.find((l) => l.startsWith("test.grpc#Both (alloy.proto#grpc, h2c)"))!)![1]!;
    const { model } = loadModel({ paths: [file] });
    const service = schemasFromModel(model).service("test.grpc#Both");
    const client = createClient(service, { endpoint: grpcUrl, protocols: [grpc()], retry: { maxAttempts: 1 } }) as unknown as {
      hello(input: object): Promise<{ greeting: string }>;
    };
    expect((await client.hello({})).greeting).toBe("greeting");
    expect(out).toContain("Both.hello via alloy.proto#grpc: synthesized");
    // The gRPC port serves gRPC's health service and server reflection too, and says how to reach them.
    const address = grpcUrl.replace("http://", "");
    expect(out).toContain(`  reflection  grpcurl -plaintext ${address} list`);
    expect(out).toContain(`  health      grpcurl -plaintext ${address} grpc.health.v1.Health/Check`);
    const health = createClient(HealthService, { endpoint: grpcUrl, protocols: [grpc()], retry: { maxAttempts: 1 } });
    expect(await health.check({ service: "test.grpc.Both" })).toMatchObject({ status: "SERVING" });
    expect(new TextDecoder().decode(await reflectionCall(grpcUrl))).toContain("test.grpc.Both");
    stop();
    expect(await running).toBe(0);
  });

  it("enforces the model's auth for the schemes given credentials (--bearer-token, --api-key, --basic), on HTTP and gRPC", async () => {
    const file = join(scratchDir("serve-auth"), "auth.smithy");
    writeFileSync(
      file,
      `$version: "2.0"
namespace test.serveauth
use alloy.proto#grpc
use alloy.proto#protoIndex
use aws.protocols#restJson1
@restJson1
@grpc
@httpBearerAuth
@httpApiKeyAuth(name: "x-api-key", in: "header")
@httpBasicAuth
@auth([httpBearerAuth, httpApiKeyAuth, httpBasicAuth])
service Locked { version: "1", operations: [Hello, Open] }
@http(method: "GET", uri: "/hello")
operation Hello { output := { @required @protoIndex(1) greeting: String } }
@auth([])
@http(method: "GET", uri: "/open")
operation Open { output := { @required @protoIndex(1) greeting: String } }
`,
    );
    // Without flags: served as before, and the log says auth is not enforced.
    const open = io();
    let stopOpen!: () => void;
    const openStopped = new Promise<void>((resolve) => (stopOpen = resolve));
    const openRunning = serveCommand(
      parseArgs(["serve", "--model", file, "--fake", "--port", "0", "--grpc-port", "0", "--no-docs"]),
      open.io,
      () => openStopped,
    );
    await expect.poll(() => open.out.some((l) => l.includes("Ctrl-C stops"))).toBe(true);
    expect(open.out).toContainEqual(
      expect.stringMatching(
        /^ {2}auth: not enforced: the model declares smithy\.api#http\w+Auth, .*\(enforce with --[a-z-]+ \S+, --[a-z-]+ \S+, --[a-z-]+ \S+\)$/,
      ),
    );
    const openUrl = /(http:\/\/\S+)/.exec(open.out.find((l) => l.startsWith("test.serveauth#Locked (aws.protocols#restJson1)"))!)![1]!;
    expect((await fetch(`${openUrl}/hello`)).status).toBe(200);
    stopOpen();
    expect(await openRunning).toBe(0);

    const { out, err, io: sink } = io();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const argv = [
      "serve",
      "--model",
      file,
      "--fake",
      "--port",
      "0",
      "--grpc-port",
      "0",
      "--no-docs",
      "--bearer-token",
      "t0k3n",
      "--basic",
      "ada:pw:with:colons",
    ];
    const running = serveCommand(parseArgs(argv), sink, () => stopped);
    await expect.poll(() => out.some((l) => l.includes("Ctrl-C stops"))).toBe(true);
    expect(err).toEqual([]);
    expect(out).toContainEqual(
      expect.stringMatching(
        /^ {2}auth: enforced: smithy\.api#http(Bearer|Basic)Auth, smithy\.api#http(Bearer|Basic)Auth; not enforced: smithy\.api#httpApiKeyAuth \(enforce with --api-key VALUE\)$/,
      ),
    );
    const url = /(http:\/\/\S+)/.exec(out.find((l) => l.startsWith("test.serveauth#Locked (aws.protocols#restJson1)"))!)![1]!;
    const missing = await fetch(`${url}/hello`);
    expect([missing.status, missing.headers.get("www-authenticate"), missing.headers.get("x-amzn-errortype")]).toEqual([
      401,
      'Bearer realm="Locked", Basic realm="Locked", charset="UTF-8"',
      "UnauthenticatedException",
    ]);
    expect((await fetch(`${url}/hello`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${url}/hello`, { headers: { authorization: "Bearer t0k3n" } })).status).toBe(200);
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Basic ${btoa("ada:pw:with:colons")}` } })).status).toBe(200);
    expect((await fetch(`${url}/hello`, { headers: { authorization: `Basic ${btoa("ada:nope")}` } })).status).toBe(401);
    // The API key scheme got no flag: a key is not a credential here.
    expect((await fetch(`${url}/hello`, { headers: { "x-api-key": "anything" } })).status).toBe(401);
    // An anonymous operation stays open.
    expect((await fetch(`${url}/open`)).status).toBe(200);

    const grpcUrl = /(http:\/\/\S+)/.exec(out.find((l) => l.startsWith("test.serveauth#Locked (alloy.proto#grpc, h2c)"))!)![1]!;
    const { model } = loadModel({ paths: [file] });
    const service = schemasFromModel(model).service("test.serveauth#Locked");
    type Hello = { hello(input: object): Promise<{ greeting: string }> };
    const anonymous = createClient(service, { endpoint: grpcUrl, protocols: [grpc()], retry: { maxAttempts: 1 } }) as unknown as Hello;
    await expect(anonymous.hello({})).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const signed = createClient(service, {
      endpoint: grpcUrl,
      protocols: [grpc()],
      retry: { maxAttempts: 1 },
      auth: [httpBearerAuth({ token: "t0k3n" })],
    }) as unknown as Hello;
    expect((await signed.hello({})).greeting).toBe("greeting");
    stop();
    expect(await running).toBe(0);
    expect(out).toContainEqual(expect.stringMatching(/^Locked\.hello via aws\.protocols#restJson1: rejected \(/));
  });
});
