/**
 * gRPC server reflection (`grpc.reflection.v1.ServerReflection` and its
 * older name `grpc.reflection.v1alpha.ServerReflection`), as a service
 * module a server serves next to its own (`server.add(grpcReflection())`):
 * what grpcurl, Postman and grpc_cli ask a server to learn its services
 * without a `.proto` file. The descriptors of the server's services are
 * made from the same file `emitProto` writes (`anvil proto`), once, when
 * the first reflection request arrives; the well-known files they import,
 * and the health and reflection services' own files, come with them.
 */
import type { Codec, EventStream, Schema, ServiceHost, ServiceModule, ServiceSchema } from "@anvil/core";
import { member, operation, service, string, struct, union } from "@anvil/core/codegenv1";
import { healthFile, reflectionFile, wellKnownFiles } from "./builtin-protos.js";
import { type DescriptorSet, describeFiles } from "./descriptor.js";
import { protoFileOf } from "./emit-proto.js";
import { grpc } from "./grpc.js";
import { HealthService } from "./health.js";
import { protoFullName } from "./names.js";
import type { ProtoFile } from "./proto-file.js";
import { toSerializationError } from "./protobuf/failure.js";
import { protobufCodec } from "./protobuf/codec.js";
import { LEN, ProtoReader } from "./protobuf/reader-buffer.js";
import { ProtoWriter } from "./protobuf/writer-buffer.js";
import { GrpcStatus } from "./status.js";

/** A reflection request, as the handler reads it. @internal */
export interface ReflectionRequest {
  readonly host: string;
  readonly request:
    | { readonly $case: "fileByFilename" | "fileContainingSymbol" | "allExtensionNumbersOfType" | "listServices"; readonly value: string }
    | { readonly $case: "fileContainingExtension"; readonly value: { readonly containingType: string; readonly extensionNumber: number } }
    | undefined;
  /** The request message's bytes, sent back as the answer's `original_request`. */
  readonly raw: Uint8Array;
}

/** A reflection answer, as the handler writes it. @internal */
export interface ReflectionResponse {
  readonly validHost: string;
  readonly originalRequest: Uint8Array;
  readonly response:
    | { readonly $case: "fileDescriptorResponse"; readonly value: readonly Uint8Array[] }
    | { readonly $case: "listServicesResponse"; readonly value: readonly string[] }
    | { readonly $case: "errorResponse"; readonly value: { readonly code: number; readonly message: string } };
}

// The stream unions say what the messages hold; their bytes are read and written by `reflectionCodec`, as the
// messages carry fields beside their oneof (host, valid_host, original_request), which a stream's union cannot.
const RequestStream = union("grpc.reflection.v1#ServerReflectionRequest", [member("fileContainingSymbol", string, { protoIndex: 4 })], {
  streaming: true,
});
const ResponseStream = union("grpc.reflection.v1#ServerReflectionResponse", [member("validHost", string, { protoIndex: 1 })], { streaming: true });

const reflectionService = (version: "v1" | "v1alpha") =>
  service(`grpc.reflection.${version}#ServerReflection`, {
    version,
    operations: {
      serverReflectionInfo: operation(`grpc.reflection.${version}#ServerReflectionInfo`, {
        input: struct<{ requests?: EventStream<ReflectionRequest> }>(`grpc.reflection.${version}#ServerReflectionInfoInput`, [
          member("requests", RequestStream, { streaming: true }),
        ]),
        output: struct<{ responses?: EventStream<ReflectionResponse> }>(`grpc.reflection.${version}#ServerReflectionInfoOutput`, [
          member("responses", ResponseStream, { streaming: true }),
        ]),
      }),
    },
    protocols: ["alloy.proto#grpc"],
  });

const V1 = reflectionService("v1");
const V1ALPHA = reflectionService("v1alpha");

/** The codec of the reflection services: protobuf, with the two stream messages read and written here. */
const reflectionCodec: Codec = Object.freeze({
  mediaType: protobufCodec.mediaType,
  reader: <T>(schema: Schema<T>) => (schema === RequestStream ? (readRequest as unknown as (bytes: Uint8Array) => T) : protobufCodec.reader(schema)),
  writer: <T>(schema: Schema<T>) => (schema === ResponseStream ? (writeResponse as unknown as (value: T) => Uint8Array) : protobufCodec.writer(schema)),
});

const REQUEST_CASES: Readonly<Record<number, "fileByFilename" | "fileContainingSymbol" | "allExtensionNumbersOfType" | "listServices">> = {
  3: "fileByFilename",
  4: "fileContainingSymbol",
  6: "allExtensionNumbersOfType",
  7: "listServices",
};

/** Reads a `ServerReflectionRequest`; malformed bytes throw a SerializationError. @internal */
export function readRequest(bytes: Uint8Array): ReflectionRequest {
  try {
    const r = new ProtoReader(bytes);
    let host = "";
    let request: ReflectionRequest["request"];
    while (r.pos < r.end) {
      const tag = r.uint32();
      const number = tag >>> 3;
      const wireType = tag & 7;
      const name = REQUEST_CASES[number];
      if (wireType === LEN && number === 1) host = r.string();
      else if (wireType === LEN && name !== undefined) request = { $case: name, value: r.string() };
      else if (wireType === LEN && number === 5) {
        const end = r.length();
        const outer = r.end;
        r.end = end;
        let containingType = "";
        let extensionNumber = 0;
        while (r.pos < end) {
          const t = r.uint32();
          if (t === ((1 << 3) | LEN)) containingType = r.string();
          else if (t === 2 << 3) extensionNumber = r.uint32() | 0;
          else r.skip(t & 7, t >>> 3);
        }
        r.end = outer;
        request = { $case: "fileContainingExtension", value: { containingType, extensionNumber } };
      } else r.skip(wireType, number);
    }
    return { host, request, raw: new Uint8Array(bytes) };
  } catch (error) {
    throw toSerializationError(error, "decode protobuf");
  }
}

/** Writes a `ServerReflectionResponse`. @internal */
export function writeResponse(value: ReflectionResponse): Uint8Array {
  const w = new ProtoWriter(256);
  if (value.validHost !== "") {
    w.uint32((1 << 3) | LEN);
    w.string(value.validHost);
  }
  w.uint32((2 << 3) | LEN);
  w.bytes(value.originalRequest);
  const { response } = value;
  const body = (field: number, write: () => void): void => {
    w.uint32((field << 3) | LEN);
    const start = w.fork();
    write();
    w.join(start);
  };
  if (response.$case === "fileDescriptorResponse") {
    body(4, () => {
      for (const file of response.value) {
        w.uint32((1 << 3) | LEN);
        w.bytes(file);
      }
    });
  } else if (response.$case === "listServicesResponse") {
    body(6, () => {
      for (const name of response.value)
        body(1, () => {
          w.uint32((1 << 3) | LEN);
          w.string(name);
        });
    });
  } else {
    body(7, () => {
      w.uint32(1 << 3);
      w.int32(response.value.code);
      w.uint32((2 << 3) | LEN);
      w.string(response.value.message);
    });
  }
  return w.result();
}

/**
 * gRPC server reflection, `grpc.reflection.v1.ServerReflection` and
 * `grpc.reflection.v1alpha.ServerReflection`, for every service the server
 * answers (its own and those added to it, health and reflection included):
 *
 * - `list_services` names them;
 * - `file_by_filename` and `file_containing_symbol` answer the
 *   `FileDescriptorProto` of the file (a service's is the one `emitProto`
 *   writes, named `<package as folders>/<service in snake case>.proto`),
 *   with the files it imports that this stream has not had yet;
 * - `file_containing_extension` and `all_extension_numbers_of_type` answer
 *   NOT_FOUND (proto3 files declare no extensions).
 *
 * The descriptors are made once, when the first reflection request arrives.
 *
 * ```ts
 * createServer(Weather, { protocols: [grpc()] }).register(handler).mapService().add(grpcReflection());
 * // grpcurl -plaintext 127.0.0.1:8081 list
 * ```
 */
export function grpcReflection(): ServiceModule {
  let host: ServiceHost | undefined;
  let described: { readonly set: DescriptorSet; readonly failures: ReadonlyMap<string, string> } | undefined;

  /** Every file, made on first use: the server's services', the built-in ones, the well-known ones. */
  const describe = (): NonNullable<typeof described> => {
    if (described !== undefined) return described;
    const files = new Map<string, ProtoFile>();
    const failures = new Map<string, string>();
    const add = (file: ProtoFile): void => {
      if (!files.has(file.name)) files.set(file.name, file);
    };
    for (const file of wellKnownFiles()) add(file);
    for (const served of host?.services ?? []) {
      if (served === HealthService) add(healthFile());
      else if (served === V1) add(reflectionFile("v1"));
      else if (served === V1ALPHA) add(reflectionFile("v1alpha"));
      else {
        try {
          add(protoFileOf(served));
        } catch (error) {
          failures.set(protoFullName(served.id), error instanceof Error ? error.message : String(error));
        }
      }
    }
    described = { set: describeFiles([...files.values()]), failures };
    return described;
  };

  const notFound = (message: string): ReflectionResponse["response"] => ({ $case: "errorResponse", value: { code: GrpcStatus.NOT_FOUND, message } });

  /** A file and the files it imports, those this stream has had left out (the file itself always goes). */
  const withImports = (name: string, sent: Set<string>): ReflectionResponse["response"] => {
    const { set } = describe();
    const out: Uint8Array[] = [];
    const visit = (file: string, requested: boolean): void => {
      if (!requested && sent.has(file)) return;
      const bytes = set.files.get(file);
      if (bytes === undefined) return;
      sent.add(file);
      out.push(bytes);
      for (const imported of set.imports.get(file) ?? []) visit(imported, false);
    };
    visit(name, true);
    return { $case: "fileDescriptorResponse", value: out };
  };

  const answer = (request: ReflectionRequest, sent: Set<string>): ReflectionResponse => {
    const response = ((): ReflectionResponse["response"] => {
      const asked = request.request;
      switch (asked?.$case) {
        case "listServices":
          return { $case: "listServicesResponse", value: (host?.services ?? []).map((s: ServiceSchema) => protoFullName(s.id)) };
        case "fileByFilename":
          return describe().set.files.has(asked.value) ? withImports(asked.value, sent) : notFound(`reflection: no file ${asked.value}`);
        case "fileContainingSymbol": {
          const { set, failures } = describe();
          const symbol = asked.value.startsWith(".") ? asked.value.slice(1) : asked.value;
          const file = set.symbols.get(symbol);
          if (file !== undefined) return withImports(file, sent);
          const failure = [...failures].find(([service]) => symbol === service || symbol.startsWith(`${service}.`));
          return notFound(failure === undefined ? `reflection: no symbol ${symbol}` : `reflection: ${failure[0]} has no descriptor: ${failure[1]}`);
        }
        case "fileContainingExtension":
          return notFound(`reflection: no extension ${asked.value.extensionNumber} of ${asked.value.containingType}`);
        case "allExtensionNumbersOfType":
          return notFound(`reflection: no extensions of ${asked.value}`);
        default:
          return { $case: "errorResponse", value: { code: GrpcStatus.INVALID_ARGUMENT, message: "reflection: the request asks for nothing" } };
      }
    })();
    return { validHost: request.host, originalRequest: request.raw, response };
  };

  async function* answers(requests: AsyncIterable<ReflectionRequest> | undefined): AsyncGenerator<ReflectionResponse, void, undefined> {
    const sent = new Set<string>();
    for await (const request of requests ?? []) yield answer(request, sent);
  }

  const handlers = {
    serverReflectionInfo(input: { requests?: EventStream<ReflectionRequest> }) {
      return { responses: answers(input.requests) };
    },
  };
  return Object.freeze({
    services: Object.freeze([
      { service: V1, handlers },
      { service: V1ALPHA, handlers },
    ]),
    protocols: Object.freeze([grpc({ codec: reflectionCodec }).server]),
    attach(given: ServiceHost) {
      if (host !== undefined) throw new Error("grpcReflection: this reflection service is added to a server already (make one per server)");
      host = given;
    },
  });
}
