/**
 * A `.proto` file as data: what `emitProto` works out for a service (its
 * package, imports, messages, enums and rpcs), before it becomes text. The
 * text (`renderProto`) and the `FileDescriptorProto` that server reflection
 * serves (`descriptor.ts`) are both made from it, so the two can never
 * disagree. Types are written as in the `.proto` text (`repeated X`,
 * `map<string, X>`, `optional X`, a scalar, a message or enum name relative
 * to the package, or `google.protobuf.X`).
 *
 * @internal
 */

/** One `.proto` file. */
export interface ProtoFile {
  /** The file's name, as `import` statements and reflection name it (`example/weather/weather_grpc.proto`). */
  readonly name: string;
  /** The proto package (may be empty). */
  readonly package: string;
  /** The first line of the text, a comment (none for built-in files). */
  readonly comment?: string;
  /** The files it imports, by name. */
  readonly imports: readonly string[];
  /** Its services. */
  readonly services: readonly ProtoService[];
  /** Its top-level messages and enums, in the order the text has them. */
  readonly definitions: readonly ProtoDefinition[];
}

/** A message or an enum. */
export type ProtoDefinition = ProtoMessage | ProtoEnum;

/** A message. */
export interface ProtoMessage {
  readonly kind: "message";
  readonly name: string;
  /** Its fields and oneofs, in order. */
  readonly items: readonly (ProtoField | ProtoOneof)[];
  /** `reserved` numbers, ranges and names. */
  readonly reserved?: readonly ProtoReserved[];
  /** Messages and enums declared inside it. */
  readonly nested?: readonly ProtoDefinition[];
}

/** A field: its type as the text writes it. */
export interface ProtoField {
  readonly kind: "field";
  readonly name: string;
  readonly number: number;
  /** `int32`, `repeated string`, `map<string, City>`, `optional string`, `google.protobuf.Timestamp`, ... */
  readonly type: string;
}

/** A oneof and its fields. */
export interface ProtoOneof {
  readonly kind: "oneof";
  readonly name: string;
  readonly fields: readonly ProtoField[];
}

/** An enum. */
export interface ProtoEnum {
  readonly kind: "enum";
  readonly name: string;
  readonly values: readonly { readonly name: string; readonly number: number }[];
  /** Whether two values share a number (`option allow_alias = true;`). */
  readonly allowAlias: boolean;
}

/** A `reserved` entry: a number, a range (both ends included, as the text writes it), or a name. */
export type ProtoReserved = { readonly number: number } | { readonly start: number; readonly end: number } | { readonly name: string };

/** A service. */
export interface ProtoService {
  readonly name: string;
  readonly methods: readonly ProtoMethod[];
}

/** An rpc: its message types as the text names them. */
export interface ProtoMethod {
  readonly name: string;
  readonly input: string;
  readonly output: string;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
}

/** The proto3 text of a file. */
export function renderProto(file: ProtoFile): string {
  const lines: string[] = [];
  if (file.comment !== undefined) lines.push(`// ${file.comment}`);
  lines.push('syntax = "proto3";', "");
  if (file.package !== "") lines.push(`package ${file.package};`, "");
  if (file.imports.length > 0) {
    for (const name of file.imports) lines.push(`import "${name}";`);
    lines.push("");
  }
  for (const service of file.services) {
    lines.push(`service ${service.name} {`);
    for (const m of service.methods) {
      lines.push(`  rpc ${m.name} (${m.clientStreaming ? "stream " : ""}${m.input}) returns (${m.serverStreaming ? "stream " : ""}${m.output});`);
    }
    lines.push("}", "");
  }
  for (const definition of file.definitions) lines.push(renderDefinition(definition, ""));
  return lines.join("\n").trimEnd() + "\n";
}

function renderDefinition(definition: ProtoDefinition, indent: string): string {
  const lines: string[] = [];
  if (definition.kind === "enum") {
    lines.push(`enum ${definition.name} {`);
    if (definition.allowAlias) lines.push("  option allow_alias = true;");
    for (const v of definition.values) lines.push(`  ${v.name} = ${v.number};`);
  } else {
    lines.push(`message ${definition.name} {`);
    for (const r of definition.reserved ?? []) {
      lines.push(`  reserved ${"number" in r ? r.number : "name" in r ? `"${r.name}"` : `${r.start} to ${r.end}`};`);
    }
    for (const nested of definition.nested ?? []) lines.push(renderDefinition(nested, "  ").trimEnd());
    for (const item of definition.items) {
      if (item.kind === "field") lines.push(`  ${fieldLine(item)}`);
      else lines.push(`  oneof ${item.name} {`, ...item.fields.map((f) => `    ${fieldLine(f)}`), "  }");
    }
  }
  lines.push("}", "");
  return lines.map((line) => (line === "" ? line : indent + line)).join("\n");
}

function fieldLine(field: ProtoField): string {
  return `${field.type} ${field.name} = ${field.number};`;
}
