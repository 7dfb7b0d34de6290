/**
 * What the `grpcurl -plaintext ...` lines `npm start` prints do, for the
 * tests (grpcurl itself is a Go program, not installed here): with server
 * reflection only (no `.proto`), `list` names the services, and
 * `[-d JSON] ADDRESS Service/Method` calls a unary method with dynamic
 * stubs and prints the answer as JSON, as grpcurl does. Test-only: it uses
 * grpc-js, @grpc/reflection's reflection.proto and protobufjs.
 */
import { createRequire } from "node:module";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";

const require = createRequire(import.meta.url);
const descriptor = require("protobufjs/ext/descriptor") as { FileDescriptorProto: { decode(bytes: Uint8Array): unknown } };
const fromDescriptor = (protobuf.Root as unknown as { fromDescriptor(set: unknown, options?: unknown): protobuf.Root }).fromDescriptor;
const REFLECTION_PROTO = require.resolve("@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto");

/** One printed grpcurl line, parsed. */
export interface GrpcurlLine {
  readonly address: string;
  readonly data: string | undefined;
  /** `list`, or `Service/Method`. */
  readonly target: string;
}

/** Parses `grpcurl -plaintext [-d 'JSON'] ADDRESS list|Service/Method` (a trailing `# comment` ignored). */
export function parseGrpcurl(line: string): GrpcurlLine {
  const match = /^grpcurl -plaintext (?:-d '([^']*)' )?(\S+) (\S+)\s*(?:#.*)?$/.exec(line.trim());
  if (match === null) throw new Error(`not a grpcurl line this helper runs: ${line}`);
  return { data: match[1], address: match[2]!, target: match[3]! };
}

/** Runs a parsed grpcurl line: the text grpcurl would print (services one a line, or the answer as JSON). */
export async function runGrpcurl({ address, data, target }: GrpcurlLine): Promise<string> {
  const definition = protoLoader.loadSync(REFLECTION_PROTO, { keepCase: true, oneofs: true });
  const { ServerReflection } = (grpcJs.loadPackageDefinition(definition) as any).grpc.reflection.v1;
  const reflection = new ServerReflection(address, grpcJs.credentials.createInsecure());
  const client = new grpcJs.Client(address, grpcJs.credentials.createInsecure());
  try {
    const call = reflection.ServerReflectionInfo();
    const answers: any[] = [];
    const waiting: (() => void)[] = [];
    call.on("data", (answer: unknown) => {
      answers.push(answer);
      waiting.shift()?.();
    });
    const ask = (request: object): Promise<any> =>
      new Promise((resolve, reject) => {
        call.once("error", reject);
        waiting.push(() => resolve(answers.shift()));
        call.write(request);
      });
    if (target === "list") {
      const answer = await ask({ list_services: "" });
      call.end();
      return `${answer.list_services_response.service
        .map((s: { name: string }) => s.name)
        .sort()
        .join("\n")}\n`;
    }
    const slash = target.lastIndexOf("/");
    const [service, method] = [target.slice(0, slash), target.slice(slash + 1)];
    const answer = await ask({ file_containing_symbol: service });
    call.end();
    if (answer.error_response) throw new Error(`reflection: ${answer.error_response.error_message}`);
    const files = answer.file_descriptor_response.file_descriptor_proto.map((bytes: Uint8Array) => descriptor.FileDescriptorProto.decode(bytes));
    const rpc = fromDescriptor({ file: files }).lookupService(service).methods[method]!.resolve() as protobuf.Method;
    const input = rpc.resolvedRequestType!;
    const output = rpc.resolvedResponseType!;
    const result = await new Promise<Record<string, unknown>>((resolve, reject) =>
      client.makeUnaryRequest(
        `/${service}/${method}`,
        (value: object) => Buffer.from(input.encode(input.fromObject(value)).finish()),
        (bytes: Buffer) => output.toObject(output.decode(bytes), { enums: String, longs: String, json: true }),
        JSON.parse(data ?? "{}") as object,
        (error, value) => (error ? reject(error) : resolve(value!)),
      ),
    );
    return `${JSON.stringify(result, null, 2)}\n`;
  } finally {
    reflection.close();
    client.close();
  }
}
