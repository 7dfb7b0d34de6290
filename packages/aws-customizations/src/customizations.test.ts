import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ClientProtocol, type HttpRequest, SerializationError, withRequestCustomizations } from "@anvil/core";
import { member, operation, service, string, struct } from "@anvil/core/codegenv1";
import { AWS_CUSTOMIZATIONS, GLACIER_CURRENT_ACCOUNT, glacierChecksums } from "./index.js";
import { sha256TreeHash, toHex } from "./sha256.js";

const HELLO_SHA256 = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

const Upload = operation("ex.glacier#UploadArchive", {
  input: () => struct("ex.glacier#UploadArchiveInput", [member("accountId", string), member("vaultName", string), member("body", string)]),
  output: () => struct("ex.glacier#UploadArchiveOutput", []),
});
const Glacier = service("ex.glacier#Glacier", { version: "2012-06-01", operations: { upload: Upload }, traits: { "aws.api#service": { sdkId: "Glacier" } } });
const Predict = operation("ex.ml#Predict", {
  input: () => struct("ex.ml#PredictInput", [member("PredictEndpoint", string)]),
  output: () => struct("ex.ml#PredictOutput", []),
});
const Ml = service("ex.ml#AmazonML", { version: "2014-12-12", operations: { predict: Predict }, traits: { "aws.api#service": { sdkId: "Machine Learning" } } });
const Plain = service("ex#Plain", { version: "1", operations: { upload: Upload, predict: Predict } });

/** A protocol stub: the input as a JSON body (or none), the label in the path, the endpoint's host. */
const stub: ClientProtocol = {
  id: "test#stub",
  async serializeRequest(_op, input, call): Promise<HttpRequest> {
    const value = input as { accountId?: string; body?: string };
    return {
      method: "POST",
      path: `/${value.accountId ?? ""}`,
      query: [],
      headers: new Headers(),
      body: value.body === undefined ? undefined : bytes(value.body),
      host: call.endpoint.host,
    };
  },
  deserializeResponse: async () => ({}),
};
const client = withRequestCustomizations(stub, AWS_CUSTOMIZATIONS);
const call = (svc: typeof Glacier | typeof Ml | typeof Plain) => ({ endpoint: new URL("https://example.com"), service: svc });

describe("Glacier", () => {
  it("sends the API version, and the body's SHA-256 and tree hash", async () => {
    const request = await client.serializeRequest(Upload, { accountId: "foo", body: "hello world" }, call(Glacier));
    expect(request.headers.get("x-amz-glacier-version")).toBe("2012-06-01");
    expect(request.headers.get("x-amz-content-sha256")).toBe(HELLO_SHA256);
    expect(request.headers.get("x-amz-sha256-tree-hash")).toBe(HELLO_SHA256);
    expect(request.path).toBe("/foo");
  });

  it.each<[string, Record<string, unknown>]>([
    ["left out", {}],
    ["null", { accountId: null }],
    ["empty", { accountId: "" }],
  ])("reads an accountId %s as the caller's account", async (_label, input) => {
    expect((await client.serializeRequest(Upload, input, call(Glacier))).path).toBe(`/${GLACIER_CURRENT_ACCOUNT}`);
  });

  it("keeps checksums the caller gave, and adds none without a body", async () => {
    const given = await glacierChecksums.modifyRequest!(
      { method: "PUT", path: "/", query: [], headers: new Headers({ "x-amz-sha256-tree-hash": "mine" }), body: bytes("hello world") },
      {},
      { operation: Upload, call: call(Glacier) },
    );
    expect(given.headers.get("x-amz-sha256-tree-hash")).toBe("mine");
    expect(given.headers.get("x-amz-content-sha256")).toBe(HELLO_SHA256);
    const none = await client.serializeRequest(Upload, { accountId: "foo" }, call(Glacier));
    expect(none.headers.has("x-amz-content-sha256")).toBe(false);
  });

  it("reads a streamed body once and sends its bytes", async () => {
    async function* chunks() {
      yield bytes("hello ");
      yield bytes("world");
    }
    const request = await glacierChecksums.modifyRequest!(
      { method: "PUT", path: "/", query: [], headers: new Headers(), body: chunks() },
      {},
      { operation: Upload, call: call(Glacier) },
    );
    expect(request.body).toEqual(bytes("hello world"));
    expect(request.headers.get("x-amz-content-sha256")).toBe(HELLO_SHA256);
  });
});

describe("the SHA-256 tree hash", () => {
  const nodeSha = (b: Uint8Array): Buffer => createHash("sha256").update(b).digest();
  const MiB = 1024 * 1024;

  it("of one chunk or less is its SHA-256", async () => {
    const one = new Uint8Array(MiB).fill(7);
    expect(toHex(await sha256TreeHash(one))).toBe(nodeSha(one).toString("hex"));
    expect(toHex(await sha256TreeHash(new Uint8Array(0)))).toBe(nodeSha(new Uint8Array(0)).toString("hex"));
  });

  it("of three chunks hashes pairs level by level, the odd one moving up", async () => {
    const data = new Uint8Array(2 * MiB + 5);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
    const [a, b, c] = [data.subarray(0, MiB), data.subarray(MiB, 2 * MiB), data.subarray(2 * MiB)].map(nodeSha);
    const expected = nodeSha(Buffer.concat([nodeSha(Buffer.concat([a!, b!])), c!]));
    expect(toHex(await sha256TreeHash(data))).toBe(expected.toString("hex"));
  });
});

describe("Machine Learning", () => {
  it("sends Predict to the host of its PredictEndpoint", async () => {
    const request = await client.serializeRequest(Predict, { PredictEndpoint: "https://custom.example.com:8443/" }, call(Ml));
    expect(request.host).toBe("custom.example.com:8443");
    expect((await client.serializeRequest(Predict, {}, call(Ml))).host).toBe("example.com");
  });

  it("rejects a PredictEndpoint that is not a URL with a SerializationError", async () => {
    const error = await client.serializeRequest(Predict, { PredictEndpoint: "not a url" }, call(Ml)).catch((e: unknown) => e);
    expect(SerializationError.is(error)).toBe(true);
    expect((error as SerializationError).path).toBe("/PredictEndpoint");
  });
});

describe("other services", () => {
  it("are left alone", async () => {
    const upload = await client.serializeRequest(Upload, { body: "hello world" }, call(Plain));
    expect(upload.path).toBe("/");
    const names: string[] = [];
    upload.headers.forEach((_value, name) => names.push(name));
    expect(names).toEqual([]);
    expect((await client.serializeRequest(Predict, { PredictEndpoint: "https://custom.example.com/" }, call(Plain))).host).toBe("example.com");
  });
});
