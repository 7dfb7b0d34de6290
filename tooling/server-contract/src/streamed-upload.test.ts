/**
 * A `@streaming` blob input goes from the restJson1 client to the server as
 * it comes, over HTTP/1.1 (node:http, the default on Node, and fetch) and
 * HTTP/2: the client's stream only goes on once the server's handler has
 * read what came before, which a client that buffered the whole body first
 * could never do. Bodies that must be
 * whole before they go (`@requiresLength`, request compression) still are.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, fetchTransport } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { restJson1 } from "@anvil/protocol-restjson";
import { createServer } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";

const MODEL = `$version: "2"
namespace example.uploads
use aws.protocols#restJson1
@restJson1
service Uploads { operations: [PutObject, PutSized] }
@idempotent @http(method: "PUT", uri: "/objects/{key}")
operation PutObject { input := { @required @httpLabel key: String, @httpPayload body: Data } output := { size: Long, chunks: Integer } }
@idempotent @http(method: "PUT", uri: "/sized/{key}")
operation PutSized { input := { @required @httpLabel key: String, @httpPayload body: SizedData } output := { size: Long, length: String } }
@streaming blob Data
@streaming @requiresLength blob SizedData
`;

type Output = { size: number; chunks?: number; length?: string };
type Uploads = Record<"putObject" | "putSized", (input: { key: string; body: AsyncIterable<Uint8Array> }) => Promise<Output>>;

const service = schemasFromModel(loadModel({ sources: [{ file: "uploads.smithy", text: MODEL }] }).model).service("example.uploads#Uploads");
const CHUNK = new Uint8Array(64 * 1024).fill(7);
/** Resolved each time the server's handler has read a chunk. */
let onChunk: (() => void) | undefined;

let listener: NodeListener;
beforeAll(async () => {
  const handlers = {
    putObject: async ({ body }: { body: AsyncIterable<Uint8Array> }) => {
      let size = 0;
      let chunks = 0;
      for await (const chunk of body) {
        size += chunk.byteLength;
        chunks++;
        onChunk?.();
      }
      return { size, chunks };
    },
    putSized: async ({ body }: { body: AsyncIterable<Uint8Array> }, context: { headers: Headers }) => {
      let size = 0;
      for await (const chunk of body) size += chunk.byteLength;
      return { size, length: context.headers.get("content-length") ?? "none" };
    },
  };
  listener = await listen(
    createServer(service, { protocols: [restJson1().server] })
      .register(handlers as never)
      .mapService(),
    { http2: "both" },
  );
});
afterAll(() => listener.close({ graceMs: 0 }));

/** `count` chunks, each sent only once the server has read the one before (or, once `lockstep` is off, at once). */
async function* lockstep(count: number, lockstepOn = true): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    const read = lockstepOn ? new Promise<void>((resolve) => (onChunk = resolve)) : undefined;
    yield CHUNK;
    if (read !== undefined)
      await Promise.race([
        read,
        new Promise((_, reject) => setTimeout(() => reject(new Error("the server never read the chunk: the client held the body back")), 5_000)),
      ]);
  }
  onChunk = undefined;
}

describe.each([
  ["HTTP/1.1 (node:http, the default on Node)", () => ({})],
  ["HTTP/1.1 (fetch)", () => ({ transport: fetchTransport() })],
  ["HTTP/2", () => ({ transport: http2Transport() })],
])("restJson1 client over %s: a streamed upload", (_name, transport) => {
  const client = () => createClient(service, { endpoint: listener.url, protocols: [restJson1()], ...transport() }) as unknown as Uploads;

  it("goes to the server as it comes, chunk by chunk, not buffered first", async () => {
    const answer = await client().putObject({ key: "a", body: lockstep(8) });
    expect(answer.size).toBe(8 * CHUNK.byteLength);
  });

  it("is made whole first where the model requires its length (@requiresLength), and states it", async () => {
    const answer = await client().putSized({ key: "b", body: lockstep(3, false) });
    expect(answer).toMatchObject({ size: 3 * CHUNK.byteLength, length: String(3 * CHUNK.byteLength) });
  });
});
