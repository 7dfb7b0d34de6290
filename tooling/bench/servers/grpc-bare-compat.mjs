// The gRPC bench's floor on node:http2's compatibility API (request/response
// objects, as @anvil/server's Node adapter uses): a pre-encoded reply, no work.
import http2 from "node:http2";
import { REPLY } from "./greeter-model.mjs";
import { ready } from "./ready.mjs";
const framed = Buffer.alloc(5 + REPLY.length);
framed.writeUInt32BE(REPLY.length, 1);
framed.set(REPLY, 5);
const server = http2.createServer((req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/grpc+proto" });
    res.addTrailers({ "grpc-status": "0" });
    res.end(framed);
  });
});
server.listen(0, "127.0.0.1", () => ready(server.address().port));
