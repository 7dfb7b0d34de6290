/**
 * `@anvil/core`: what users of Anvil touch. Runtime schemas and their
 * traits, the client and handler types mapped from them, value types
 * (`BigDecimal`, documents, byte and event streams), the error hierarchy,
 * the HTTP message, protocol, codec and auth interfaces, request
 * customizations and validation.
 *
 * Generated code imports `@anvil/core/codegenv1`; protocol, codec and
 * transport authors find their building blocks in `@anvil/core/protocol`.
 *
 * @packageDocumentation
 */
export type {
  EnumSchema,
  EnumValue,
  IntEnumSchema,
  ListSchema,
  MapSchema,
  MemberSchema,
  OperationSchema,
  ScalarKind,
  ScalarSchema,
  Schema,
  SchemaKind,
  ServiceSchema,
  StructSchema,
  UnionSchema,
  UnionValue,
  UnknownVariant,
  ValueOf,
} from "./schema/schema.js";
export { isMemberOptional } from "./schema/schema.js";
export { withOperations } from "./schema/builders.js";
export type { Bounds, HttpBinding, OperationTraits, ProtoNumType, TimestampFormat, Traits } from "./schema/traits.js";
export type { CallOptions, ClientMethod, ClientOf, HandlerOf, HandlersOf, InputOf, OutputOf, Sendable } from "./schema/mapped-types.js";
export { BigDecimal } from "./values/big-decimal.js";
export type { Document } from "./values/document.js";
export type { ByteStream, ByteStreamInput, EventStream } from "./values/streams.js";
export { byteChunks, collectBytes } from "./values/streams.js";
export {
  AnvilError,
  errorClass,
  ModeledError,
  ProtocolError,
  SerializationError,
  TransportError,
  UnmodeledError,
  ValidationError,
} from "./errors/errors.js";
export type { AnvilErrorKind, AnvilErrorOptions, ModeledErrorClass, ModeledErrorOptions, ResponseMetadata, ValidationField } from "./errors/errors.js";
export type { HttpBody, HttpRequest, HttpResponse } from "./protocol/http.js";
export { type HeadersSource, HttpHeaders, type ParsedFields } from "./protocol/headers.js";
export type {
  ClientCallContext,
  ClientProtocol,
  Route,
  ServerCallContext,
  ServerProtocol,
  ServiceHost,
  ServiceImplementation,
  ServiceModule,
  ServingState,
} from "./protocol/protocol.js";
export type { AuthCall, AuthScheme, Provider, ServerAuthScheme, SigningContext } from "./protocol/auth.js";
export { withRequestCustomizations } from "./protocol/customization.js";
export type { RequestCustomization, RequestCustomizationContext } from "./protocol/customization.js";
export type { Codec, ShapeReader, ShapeWriter } from "./codec.js";
export { assertValid, validateValue } from "./validation/validator.js";
