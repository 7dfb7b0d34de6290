/**
 * TypeScript names for model shapes: escaped when they would shadow a
 * keyword, a global or an `@anvil/core` import, and made unique per file.
 */

/** Words a generated declaration may not be named: keywords, and names generated code refers to. */
const RESERVED: ReadonlySet<string> = new Set([
  // ECMAScript reserved words and TypeScript's predefined type names
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "any",
  "bigint",
  "boolean",
  "never",
  "number",
  "object",
  "string",
  "symbol",
  "undefined",
  "unknown",
  "arguments",
  "eval",
  "type",
  "as",
  "async",
  "of",
  "declare",
  "keyof",
  "readonly",
  // Globals generated code uses
  "Array",
  "AsyncIterable",
  "BigInt",
  "Boolean",
  "Date",
  "Error",
  "Function",
  "Infinity",
  "Map",
  "NaN",
  "Number",
  "Object",
  "Partial",
  "Promise",
  "Readonly",
  "Record",
  "Set",
  "String",
  "Symbol",
  "Uint8Array",
  "globalThis",
  // @anvil/core imports
  "BigDecimal",
  "ByteStream",
  "CallOptions",
  "Document",
  "EnumSchema",
  "EventStream",
  "FakeOperation",
  "HandlerOf",
  "InputOf",
  "OutputOf",
  "Sendable",
  "fakeCall",
  "IntEnumSchema",
  "ListSchema",
  "MapSchema",
  "ModeledError",
  "ModeledErrorClass",
  "OperationSchema",
  "ScalarSchema",
  "ServiceSchema",
  "StructSchema",
  "UnionSchema",
  "UnionValue",
  "bigDecimal",
  "bigInteger",
  "blob",
  "byte",
  "document",
  "double",
  "enumeration",
  "errorClass",
  "float",
  "intEnum",
  "integer",
  "list",
  "long",
  "map",
  "member",
  "operation",
  "scalar",
  "service",
  "short",
  "struct",
  "timestamp",
  "union",
  "unit",
  "withOperations",
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether text can be written as a bare property name. */
export function isPropertyName(text: string): boolean {
  return IDENTIFIER.test(text);
}

/** A property key as written in an object literal or interface: bare when possible, else quoted. */
export function propertyKey(name: string): string {
  if (name === "__proto__") return `["__proto__"]`;
  return isPropertyName(name) ? name : JSON.stringify(name);
}

/** A declaration name for a shape name: prefixed with `_` when it is reserved (`Object` → `_Object`). */
export function escapeName(name: string): string {
  return RESERVED.has(name) ? `_${name}` : name;
}

/** `LargeService` → `large-service`: file names for services. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase();
}

/**
 * Unique names within one generated file. Types and values are separate
 * name spaces in TypeScript, so a type and a value may share a name (an
 * error class and its instance type do). A taken name gets a numeric suffix.
 */
export class NameScope {
  private readonly types = new Set<string>();
  private readonly values = new Set<string>();

  /** Claims a type name, returning the name actually given. */
  type(wanted: string): string {
    return claim(this.types, escapeName(wanted));
  }

  /** Claims a value name, returning the name actually given. */
  value(wanted: string): string {
    return claim(this.values, escapeName(wanted));
  }

  /** Claims the same name in both spaces (a class, or a `const` object with its type). */
  both(wanted: string): string {
    let name = escapeName(wanted);
    for (let i = 2; this.types.has(name) || this.values.has(name); i++) name = `${escapeName(wanted)}${i}`;
    this.types.add(name);
    this.values.add(name);
    return name;
  }
}

function claim(taken: Set<string>, wanted: string): string {
  let name = wanted;
  for (let i = 2; taken.has(name); i++) name = `${wanted}${i}`;
  taken.add(name);
  return name;
}
