// The gRPC bench's grpc-js server: the same service, loaded with proto-loader
// from the .proto that emitProto writes for it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { emitProto } from "@anvil/protocol-grpc";
import { Greeter, sayHello } from "./greeter-model.mjs";
import { ready } from "./ready.mjs";

const file = join(mkdtempSync(join(tmpdir(), "anvil-bench-")), "greeter.proto");
writeFileSync(file, emitProto(Greeter));
const loaded = grpcJs.loadPackageDefinition(protoLoader.loadSync(file, { keepCase: true, defaults: true }));
const server = new grpcJs.Server();
server.addService(loaded.bench.grpc.Greeter.service, {
  SayHello(call, callback) {
    callback(null, sayHello(call.request));
  },
});
const port = await new Promise((resolve, reject) =>
  server.bindAsync("127.0.0.1:0", grpcJs.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
);
ready(port);
