/**
 * The test service of the gRPC tests: every call kind, modeled errors,
 * validation and a call that waits for its signal. Schemas only (the tests
 * start servers and clients).
 *
 * @internal
 */
import type { EventStream, UnionValue } from "@anvil/core";
import { blob, errorClass, integer, member, operation, service, string, struct, union } from "@anvil/core/codegenv1";

const NoSuchNameSchema = struct<{ message?: string; name?: string }>(
  "example.grpctest#NoSuchName",
  [member("message", string, { protoIndex: 1 }), member("name", string, { protoIndex: 2 })],
  { error: "client", httpError: 404 },
);
/** A modeled error with members beyond its message. */
export const NoSuchName = errorClass(NoSuchNameSchema);

/** A modeled error no operation declares. */
export const Undeclared = errorClass(
  struct<{ message?: string }>("example.grpctest#Undeclared", [member("message", string, { protoIndex: 1 })], { error: "client" }),
);

const TickSchema = struct<{ n: number }>("example.grpctest#Tick", [member("n", integer, { required: true, protoIndex: 1 })]);
const SaySchema = struct<{ text: string }>("example.grpctest#Say", [member("text", string, { required: true, protoIndex: 1 })]);

/** Events of the countdown and sum streams. */
export type TickEvent = UnionValue<{ tick: { n: number } }>;
/** Events of the chat streams. */
export type ChatEvent = UnionValue<{ say: { text: string } }>;

const TickStream = union<TickEvent>("example.grpctest#TickStream", [member("tick", TickSchema, { protoIndex: 1 })], { streaming: true });
const ChatStream = union<ChatEvent>("example.grpctest#ChatStream", [member("say", SaySchema, { protoIndex: 1 })], { streaming: true });

const SayHello = operation("example.grpctest#SayHello", {
  input: struct<{ name: string; times?: number }>("example.grpctest#SayHelloInput", [
    member("name", string, { required: true, protoIndex: 1, length: { min: 1 } }),
    member("times", integer, { protoIndex: 2 }),
  ]),
  output: struct<{ message?: string }>("example.grpctest#SayHelloOutput", [member("message", string, { protoIndex: 1 })]),
  errors: [() => NoSuchNameSchema],
});

const Echo = operation("example.grpctest#Echo", {
  input: struct<{ data?: Uint8Array }>("example.grpctest#EchoInput", [member("data", blob, { protoIndex: 1 })]),
  output: struct<{ size?: number; data?: Uint8Array }>("example.grpctest#EchoOutput", [
    member("size", integer, { protoIndex: 1 }),
    member("data", blob, { protoIndex: 2 }),
  ]),
});

const Fail = operation("example.grpctest#Fail", {
  input: struct("example.grpctest#FailInput", []),
  output: struct("example.grpctest#FailOutput", []),
});

const Wait = operation("example.grpctest#Wait", {
  input: struct("example.grpctest#WaitInput", []),
  output: struct("example.grpctest#WaitOutput", []),
});

const Countdown = operation("example.grpctest#Countdown", {
  input: struct<{ from?: number }>("example.grpctest#CountdownInput", [member("from", integer, { protoIndex: 1 })]),
  output: struct<{ ticks?: EventStream<TickEvent> }>("example.grpctest#CountdownOutput", [member("ticks", TickStream, { streaming: true })]),
  errors: [() => NoSuchNameSchema],
});

const Sum = operation("example.grpctest#Sum", {
  input: struct<{ ticks?: EventStream<TickEvent> }>("example.grpctest#SumInput", [member("ticks", TickStream, { streaming: true })]),
  output: struct<{ total?: number }>("example.grpctest#SumOutput", [member("total", integer, { protoIndex: 1 })]),
});

const Chat = operation("example.grpctest#Chat", {
  input: struct<{ says?: EventStream<ChatEvent> }>("example.grpctest#ChatInput", [member("says", ChatStream, { streaming: true })]),
  output: struct<{ replies?: EventStream<ChatEvent> }>("example.grpctest#ChatOutput", [member("replies", ChatStream, { streaming: true })]),
});

/** Events of the download and upload streams: 16 KiB chunks. */
export type ChunkEvent = UnionValue<{ chunk: { data: Uint8Array } }>;
const ChunkSchema = struct<{ data: Uint8Array }>("example.grpctest#Chunk", [member("data", blob, { required: true, protoIndex: 1 })]);
const ChunkStream = union<ChunkEvent>("example.grpctest#ChunkStream", [member("chunk", ChunkSchema, { protoIndex: 1 })], { streaming: true });

const Download = operation("example.grpctest#Download", {
  input: struct<{ count?: number }>("example.grpctest#DownloadInput", [member("count", integer, { protoIndex: 1 })]),
  output: struct<{ chunks?: EventStream<ChunkEvent> }>("example.grpctest#DownloadOutput", [member("chunks", ChunkStream, { streaming: true })]),
});

const Upload = operation("example.grpctest#Upload", {
  input: struct<{ chunks?: EventStream<ChunkEvent> }>("example.grpctest#UploadInput", [member("chunks", ChunkStream, { streaming: true })]),
  output: struct<{ count?: number }>("example.grpctest#UploadOutput", [member("count", integer, { protoIndex: 1 })]),
});

/** The service. */
export const Greeter = service("example.grpctest#Greeter", {
  version: "1",
  operations: { sayHello: SayHello, echo: Echo, fail: Fail, wait: Wait, countdown: Countdown, sum: Sum, chat: Chat, download: Download, upload: Upload },
  protocols: ["alloy.proto#grpc"],
});
