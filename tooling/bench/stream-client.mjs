// The stream-memory bench's clients, each in a process of its own so that
// its peak memory (VmHWM) is its own: `node stream-client.mjs anvil` calls
// the Blobs service with @anvil/client-core (its default transport over
// HTTP/1.1, node:http on Node; the HTTP/2 transport over h2c);
// `node stream-client.mjs bare` does the same exchanges with bare node:http
// and node:http2, writing chunk by chunk and waiting for `drain`. Both send
// the same chunks (blob-model.mjs) and drop what they download as it arrives.
//
// Told over IPC { type: "upload" | "download", origin, version: "1.1" | "2", size };
// answers { ms, bytes } (bytes: what the server said it received, or what
// was read), or { error }.
import http from "node:http";
import http2 from "node:http2";
import { once } from "node:events";
import { CHUNK, CHUNK_BYTES, chunks } from "./servers/blob-bytes.mjs";

const kind = process.argv[2];

/** The Anvil client: one per origin and HTTP version, made on first use. */
async function anvilSide() {
  const [{ createClient }, { http2Transport }, { byteChunks }, { restJson1 }, { Blobs }] = await Promise.all([
    import("@anvil/client-core"),
    import("@anvil/client-core/node"),
    import("@anvil/core"),
    import("@anvil/protocol-restjson"),
    import("./servers/blob-model.mjs"),
  ]);
  const clients = new Map();
  const clientOf = (origin, version) => {
    const key = `${origin} ${version}`;
    if (!clients.has(key)) {
      clients.set(key, createClient(Blobs, { endpoint: origin, protocols: [restJson1()], ...(version === "2" ? { transport: http2Transport() } : {}) }));
    }
    return clients.get(key);
  };
  return {
    async upload(origin, version, size) {
      const { size: received } = await clientOf(origin, version).putBlob({ key: "bench", body: chunks(size) });
      return Number(received);
    },
    async download(origin, version, size) {
      const { body } = await clientOf(origin, version).getBlob({ key: "bench", size });
      let read = 0;
      for await (const chunk of byteChunks(body)) read += chunk.byteLength;
      return read;
    },
  };
}

/** Writes `size` bytes of chunks to a writable, waiting for `drain` whenever it is full, then ends it. */
async function writeAll(writable, size) {
  for (let sent = 0; sent < size; sent += CHUNK_BYTES) {
    if (!writable.write(size - sent >= CHUNK_BYTES ? CHUNK : CHUNK.subarray(0, size - sent))) await once(writable, "drain");
  }
  writable.end();
}

/** Reads a readable to its end, dropping the bytes; resolves with how many there were (and the text, when small). */
async function readAll(readable) {
  let read = 0;
  const small = [];
  for await (const chunk of readable) {
    read += chunk.byteLength;
    if (read <= 256) small.push(chunk);
  }
  return { read, text: Buffer.concat(small).toString() };
}

/** The bare client: node:http with a keep-alive agent, node:http2 with one session per origin. */
function bareSide() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sessions = new Map();
  const sessionOf = (origin) => {
    let session = sessions.get(origin);
    if (session === undefined || session.closed || session.destroyed) sessions.set(origin, (session = http2.connect(origin)));
    return session;
  };
  const h1 = (origin, method, path, size) =>
    new Promise((resolve, reject) => {
      const url = new URL(path, origin);
      const headers = method === "PUT" ? { "content-type": "application/octet-stream" } : {};
      const req = http.request({ agent, host: url.hostname, port: url.port, method, path, headers }, (res) => readAll(res).then(resolve, reject));
      req.on("error", reject);
      if (method === "PUT") writeAll(req, size).catch(reject);
      else req.end();
    });
  const h2 = (origin, method, path, size) =>
    new Promise((resolve, reject) => {
      const headers = { ":method": method, ":path": path, ...(method === "PUT" ? { "content-type": "application/octet-stream" } : {}) };
      const stream = sessionOf(origin).request(headers, { endStream: method !== "PUT" });
      stream.on("error", reject);
      stream.on("response", () => readAll(stream).then(resolve, reject));
      if (method === "PUT") writeAll(stream, size).catch(reject);
    });
  const exchange = (version) => (version === "2" ? h2 : h1);
  return {
    async upload(origin, version, size) {
      const { text } = await exchange(version)(origin, "PUT", "/blobs/bench", size);
      return JSON.parse(text).size;
    },
    async download(origin, version, size) {
      return (await exchange(version)(origin, "GET", `/blobs/bench?size=${size}`)).read;
    },
  };
}

const side = kind === "anvil" ? await anvilSide() : bareSide();
process.on("message", async ({ type, origin, version, size }) => {
  try {
    const start = performance.now();
    const bytes = await side[type](origin, version, size);
    process.send({ ms: performance.now() - start, bytes });
  } catch (error) {
    process.send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
process.send({ ready: true });
