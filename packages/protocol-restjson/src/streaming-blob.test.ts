import { describe, expect, it } from "vitest";
import { collectBytes, type HttpBody, type HttpRequest } from "@anvil/core";
import { long, member, operation, scalar, service, string, struct } from "@anvil/core/codegenv1";
import { restJson1 } from "./index.js";

const PhotoData = scalar("blob", "example.weather#PhotoData", { streaming: true });

const PutPhoto = operation("example.weather#PutPhoto", {
  input: struct("example.weather#PutPhotoInput", [
    member("key", string, { required: true, httpLabel: true }),
    member("body", PhotoData, { required: true, httpPayload: true }),
  ]),
  output: struct("example.weather#PutPhotoOutput", [member("size", long)]),
  traits: { http: { method: "PUT", uri: "/photos/{key+}", code: 200 } },
});
const GetPhoto = operation("example.weather#GetPhoto", {
  input: struct("example.weather#GetPhotoInput", [member("key", string, { required: true, httpLabel: true })]),
  output: struct("example.weather#GetPhotoOutput", [
    member("contentType", string, { httpHeader: "Content-Type" }),
    member("body", PhotoData, { required: true, httpPayload: true }),
  ]),
  traits: { http: { method: "GET", uri: "/photos/{key+}", code: 200 } },
});
const Photos = service("example.weather#Photos", { operations: { putPhoto: PutPhoto, getPhoto: GetPhoto }, protocols: ["aws.protocols#restJson1"] });

const { client, server } = restJson1();
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = async (body: unknown): Promise<string> => new TextDecoder().decode(await collectBytes(body as AsyncIterable<Uint8Array>));

/** A body whose chunks are handed out one at a time, recording how far it was read. */
function trickle(...chunks: string[]): { body: AsyncIterable<Uint8Array>; read: () => number } {
  let read = 0;
  return {
    body: (async function* () {
      for (const c of chunks) {
        read += 1;
        yield bytes(c);
      }
    })(),
    read: () => read,
  };
}

describe("restJson1 @streaming blob payloads", () => {
  it("hand the server's handler the request body as a stream, unread", async () => {
    const { body, read } = trickle("ab", "cd");
    const request: HttpRequest = {
      method: "PUT",
      path: "/photos/a/b.png",
      query: [],
      headers: new Headers({ "content-type": "application/octet-stream" }),
      body,
    };
    const input = (await server.deserializeRequest(PutPhoto, request, { service: Photos, labels: { key: "a/b.png" } })) as { key: string; body: unknown };
    expect(input.key).toBe("a/b.png");
    expect(read()).toBe(0);
    expect(await text(input.body)).toBe("abcd");
  });

  it.each<[string, HttpBody]>([
    ["whole bytes", bytes("abcd")],
    ["no body", undefined],
  ])("give the handler a stream when the transport buffered the body (%s)", async (_what, body) => {
    const request: HttpRequest = { method: "PUT", path: "/photos/x", query: [], headers: new Headers(), body };
    const input = (await server.deserializeRequest(PutPhoto, request, { service: Photos, labels: { key: "x" } })) as { body: unknown };
    expect(await text(input.body)).toBe(body === undefined ? "" : "abcd");
  });

  it("write a handler's stream as it is read, without Content-Length", async () => {
    const { body, read } = trickle("ab", "cd");
    const response = await server.serializeResponse(GetPhoto, { contentType: "image/png", body }, { service: Photos, labels: {} });
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(read()).toBe(0);
    expect(await text(response.body)).toBe("abcd");
  });

  it("write whole bytes from a handler with their length and the default media type", async () => {
    const response = await server.serializeResponse(GetPhoto, { body: bytes("abcd") }, { service: Photos, labels: {} });
    expect(response.headers.get("content-length")).toBe("4");
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
  });

  it("give the client's caller the response body as a stream", async () => {
    const { body, read } = trickle("ab", "cd");
    const context = { endpoint: new URL("https://photos.example.com"), service: Photos };
    const output = (await client.deserializeResponse(GetPhoto, { status: 200, headers: new Headers({ "content-type": "image/png" }), body }, context)) as {
      contentType: string;
      body: unknown;
    };
    expect(output.contentType).toBe("image/png");
    expect(read()).toBe(0);
    expect(await text(output.body)).toBe("abcd");
  });
});
