/**
 * The `.proto` files reflection serves besides the application's: the
 * well-known types emitted files import (`google/protobuf/timestamp.proto`,
 * `struct.proto`, `wrappers.proto`, `empty.proto`), and the files of gRPC's
 * own health and reflection services, as the upstream files declare them
 * (options left out). Made when first asked for.
 *
 * @internal
 */
import type { ProtoDefinition, ProtoField, ProtoFile, ProtoMessage } from "./proto-file.js";

const f = (name: string, number: number, type: string): ProtoField => ({ kind: "field", name, number, type });
const message = (name: string, items: ProtoMessage["items"], nested?: readonly ProtoDefinition[]): ProtoMessage => ({
  kind: "message",
  name,
  items,
  ...(nested !== undefined ? { nested } : {}),
});
const file = (name: string, pkg: string, definitions: readonly ProtoDefinition[], services: ProtoFile["services"] = [], imports: string[] = []): ProtoFile => ({
  name,
  package: pkg,
  imports,
  services,
  definitions,
});

/** The well-known files, by name. */
export function wellKnownFiles(): readonly ProtoFile[] {
  const wrapper = (name: string, type: string) => message(name, [f("value", 1, type)]);
  return [
    file("google/protobuf/timestamp.proto", "google.protobuf", [message("Timestamp", [f("seconds", 1, "int64"), f("nanos", 2, "int32")])]),
    file("google/protobuf/empty.proto", "google.protobuf", [message("Empty", [])]),
    file("google/protobuf/struct.proto", "google.protobuf", [
      message("Struct", [f("fields", 1, "map<string, Value>")]),
      message("Value", [
        {
          kind: "oneof",
          name: "kind",
          fields: [
            f("null_value", 1, "NullValue"),
            f("number_value", 2, "double"),
            f("string_value", 3, "string"),
            f("bool_value", 4, "bool"),
            f("struct_value", 5, "Struct"),
            f("list_value", 6, "ListValue"),
          ],
        },
      ]),
      { kind: "enum", name: "NullValue", values: [{ name: "NULL_VALUE", number: 0 }], allowAlias: false },
      message("ListValue", [f("values", 1, "repeated Value")]),
    ]),
    file("google/protobuf/wrappers.proto", "google.protobuf", [
      wrapper("DoubleValue", "double"),
      wrapper("FloatValue", "float"),
      wrapper("Int64Value", "int64"),
      wrapper("UInt64Value", "uint64"),
      wrapper("Int32Value", "int32"),
      wrapper("UInt32Value", "uint32"),
      wrapper("BoolValue", "bool"),
      wrapper("StringValue", "string"),
      wrapper("BytesValue", "bytes"),
    ]),
  ];
}

/** `grpc/health/v1/health.proto`. */
export function healthFile(): ProtoFile {
  const status = {
    kind: "enum" as const,
    name: "ServingStatus",
    values: [
      { name: "UNKNOWN", number: 0 },
      { name: "SERVING", number: 1 },
      { name: "NOT_SERVING", number: 2 },
      { name: "SERVICE_UNKNOWN", number: 3 },
    ],
    allowAlias: false,
  };
  const rpc = (name: string, input: string, output: string, serverStreaming = false) => ({ name, input, output, clientStreaming: false, serverStreaming });
  return file(
    "grpc/health/v1/health.proto",
    "grpc.health.v1",
    [
      message("HealthListRequest", []),
      message("HealthListResponse", [f("statuses", 1, "map<string, HealthCheckResponse>")]),
      message("HealthCheckRequest", [f("service", 1, "string")]),
      message("HealthCheckResponse", [f("status", 1, "ServingStatus")], [status]),
    ],
    [
      {
        name: "Health",
        methods: [
          rpc("Check", "HealthCheckRequest", "HealthCheckResponse"),
          rpc("Watch", "HealthCheckRequest", "HealthCheckResponse", true),
          rpc("List", "HealthListRequest", "HealthListResponse"),
        ],
      },
    ],
  );
}

/** `grpc/reflection/<version>/reflection.proto` (v1 and v1alpha declare the same messages). */
export function reflectionFile(version: "v1" | "v1alpha"): ProtoFile {
  return file(
    `grpc/reflection/${version}/reflection.proto`,
    `grpc.reflection.${version}`,
    [
      message("ServerReflectionRequest", [
        f("host", 1, "string"),
        {
          kind: "oneof",
          name: "message_request",
          fields: [
            f("file_by_filename", 3, "string"),
            f("file_containing_symbol", 4, "string"),
            f("file_containing_extension", 5, "ExtensionRequest"),
            f("all_extension_numbers_of_type", 6, "string"),
            f("list_services", 7, "string"),
          ],
        },
      ]),
      message("ExtensionRequest", [f("containing_type", 1, "string"), f("extension_number", 2, "int32")]),
      message("ServerReflectionResponse", [
        f("valid_host", 1, "string"),
        f("original_request", 2, "ServerReflectionRequest"),
        {
          kind: "oneof",
          name: "message_response",
          fields: [
            f("file_descriptor_response", 4, "FileDescriptorResponse"),
            f("all_extension_numbers_response", 5, "ExtensionNumberResponse"),
            f("list_services_response", 6, "ListServiceResponse"),
            f("error_response", 7, "ErrorResponse"),
          ],
        },
      ]),
      message("FileDescriptorResponse", [f("file_descriptor_proto", 1, "repeated bytes")]),
      message("ExtensionNumberResponse", [f("base_type_name", 1, "string"), f("extension_number", 2, "repeated int32")]),
      message("ListServiceResponse", [f("service", 1, "repeated ServiceResponse")]),
      message("ServiceResponse", [f("name", 1, "string")]),
      message("ErrorResponse", [f("error_code", 1, "int32"), f("error_message", 2, "string")]),
    ],
    [
      {
        name: "ServerReflection",
        methods: [
          { name: "ServerReflectionInfo", input: "ServerReflectionRequest", output: "ServerReflectionResponse", clientStreaming: true, serverStreaming: true },
        ],
      },
    ],
  );
}
