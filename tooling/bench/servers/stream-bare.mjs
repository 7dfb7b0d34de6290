// The stream-memory bench's baseline server: bare node:http (and node:http2
// on a second port, h2c) doing the same: `PUT /blobs/<key>` read and dropped,
// answered with the size as JSON; `GET /blobs/<key>?size=N` written chunk
// by chunk, waiting for `drain` whenever the socket is full.
import http from "node:http";
import http2 from "node:http2";
import { once } from "node:events";
import { CHUNK, CHUNK_BYTES } from "./blob-bytes.mjs";
import { ready } from "./ready.mjs";

async function handle(req, res) {
  const url = new URL(req.url, "http://x");
  if (req.method === "PUT") {
    let size = 0;
    for await (const chunk of req) size += chunk.byteLength;
    const out = JSON.stringify({ size });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
    res.end(out);
    return;
  }
  const size = Number(url.searchParams.get("size"));
  res.writeHead(200, { "content-type": "application/octet-stream" });
  for (let sent = 0; sent < size; sent += CHUNK_BYTES) {
    if (!res.write(size - sent >= CHUNK_BYTES ? CHUNK : CHUNK.subarray(0, size - sent))) await once(res, "drain");
  }
  res.end();
}

const h1 = http.createServer((req, res) => void handle(req, res));
const h2 = http2.createServer((req, res) => void handle(req, res));
await Promise.all([new Promise((r) => h1.listen(0, "127.0.0.1", r)), new Promise((r) => h2.listen(0, "127.0.0.1", r))]);
ready(h1.address().port, { h2Port: h2.address().port });
