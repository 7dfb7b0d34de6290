// The fuzz bench's decoders, by name, in the order they run. Each module's
// target has `decoder` and `typed` (what it is, and what counts as a typed
// rejection, for the table) and `setup()`, which resolves with
// { arbitrary, run(input), isTyped(error), describe(input), seeds }; `async`
// when `run` returns a promise.
export const TARGETS = {
  json: () => import("./codecs.mjs").then((m) => m.json),
  cbor: () => import("./codecs.mjs").then((m) => m.cbor),
  protobuf: () => import("./grpc.mjs").then((m) => m.protobuf),
  "grpc-frames": () => import("./grpc.mjs").then((m) => m.grpcFrames),
  eventstream: () => import("./eventstream.mjs").then((m) => m.eventstream),
  sse: () => import("./sse.mjs").then((m) => m.sse),
  uri: () => import("./uri.mjs").then((m) => m.uri),
  sigv4: () => import("./sigv4.mjs").then((m) => m.sigv4Target),
};
