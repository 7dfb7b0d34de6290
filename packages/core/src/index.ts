/**
 * `@anvil/core`: runtime schemas, value types, the error hierarchy, the
 * protocol interfaces and validation. Generated code imports the builders
 * from `@anvil/core/codegen`.
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
export type { Bounds, HttpBinding, OperationTraits, ProtoNumType, TimestampFormat, Traits } from "./schema/traits.js";
export { NO_TRAITS } from "./schema/traits.js";
export type { CallOptions, ClientMethod, ClientOf, HandlerOf, HandlersOf, InputOf, OutputOf, Sendable } from "./schema/mapped-types.js";
export { BigDecimal } from "./values/big-decimal.js";
export type { Document } from "./values/document.js";
export type { ByteStream, ByteStreamInput, EventStream } from "./values/streams.js";
export { collectBytes, concatBytes, isAsyncIterable, plainBytes } from "./values/streams.js";
export { fillIdempotencyTokens, newIdempotencyToken } from "./values/idempotency.js";
export { setDataKey } from "./values/data-key.js";
export {
  AnvilError,
  BODY_EXCERPT_LENGTH,
  createModeledError,
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
export { binaryBody, bodyBytes, parseQuery, queryPairProblem } from "./protocol/http.js";
export { percentEncodingProblem } from "./protocol/percent-encoding.js";
export { acceptsMediaType, baseMediaType } from "./protocol/media-type.js";
export { type HeadersSource, HttpHeaders, type ParsedFields } from "./protocol/headers.js";
export { bodyMessage, findErrorSchema, sanitizeErrorType, VALIDATION_EXCEPTION_ID, validationExceptionSchema } from "./protocol/error-type.js";
export { shapeName } from "./schema/builders.js";
export { DEFAULT_BODY_LIMIT, gunzip, type GunzipLimit, gunzipRequest, gzip, isBlank, isGzipEncoded, readBody } from "./protocol/body.js";
export { CLIENT_INPUT_DEFAULTS, correctRequired, fillDefaults, SERVER_OUTPUT_DEFAULTS } from "./values/defaults.js";
export type { DefaultsMode } from "./values/defaults.js";
export type { ClientCallContext, ClientProtocol, Route, ServerCallContext, ServerProtocol } from "./protocol/protocol.js";
export { DEADLINE_EXCEEDED } from "./protocol/protocol.js";
export type { AuthScheme, Provider, SigningContext } from "./protocol/auth.js";
export { withRequestCustomizations } from "./protocol/customization.js";
export type { RequestCustomization, RequestCustomizationContext } from "./protocol/customization.js";
export type { Codec, ShapeReader, ShapeWriter } from "./codec.js";
export { OutputBuffer } from "./codec-buffer.js";
export { CodecFailure, codecError, codecFail, escapePointerSegment, rethrowAt } from "./codec-failure.js";
export { assertValid, compileValidator, hasConstraints, NO_VIOLATIONS_VALIDATOR, validateValue } from "./validation/validator.js";
export { compilePattern, ecmaPatternSource, type PatternTest } from "./validation/pattern.js";
export type { Validator } from "./validation/validator.js";
export { byteChunks, isWholeBody, readWholeBody, type WholeBody } from "./values/streams.js";
export { encodeUtf8 } from "./values/utf8.js";
export { refuseStreamingBlob } from "./protocol/streaming-blob.js";
export {
  AWS_QUERY_COMPATIBLE,
  AWS_QUERY_ERROR,
  findErrorByQueryCode,
  isQueryCompatible,
  queryErrorCode,
  queryErrorHeader,
  responseQueryCode,
} from "./protocol/query-compat.js";
export { postRoutes, rpcV2Path } from "./protocol/rpc-routes.js";
export type { PostRoute } from "./protocol/rpc-routes.js";
export { compileExampleMatcher } from "./fakes/match.js";
export type { ExampleMatcher } from "./fakes/match.js";
export { fakeAnswer, fakeCall, fakeClientCall } from "./fakes/answer.js";
export type { FakeAnswer, FakeExample, FakeOperation } from "./fakes/answer.js";
