// The gRPC bench's floor: a bare node:http2 server that reads the request and
// answers a pre-encoded reply with its trailers (no decoding, no routing).
import http2 from "node:http2";
import { REPLY } from "./greeter-model.mjs";
import { ready } from "./ready.mjs";

const framed = Buffer.alloc(5 + REPLY.length);
framed.writeUInt32BE(REPLY.length, 1);
framed.set(REPLY, 5);
const server = http2.createServer();
server.on("stream", (stream) => {
  stream.on("data", () => {});
  stream.on("end", () => {
    stream.respond({ ":status": 200, "content-type": "application/grpc+proto" }, { waitForTrailers: true });
    stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end(framed);
  });
});
server.listen(0, "127.0.0.1", () => ready(server.address().port));
