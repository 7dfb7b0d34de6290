/**
 * `@anvil/core/protocol`: the building blocks of protocols, codecs,
 * transports and servers, shared so that each rule exists once. Message
 * bodies (reading with limits, gzip), headers, query strings and media
 * types; error types and the modeled errors they name; awsQuery
 * compatibility; RPC routes; member defaults; codec buffers and failures;
 * compiled validators and patterns; and the example matching fakes answer
 * from. Applications rarely need it: `@anvil/core` holds what they touch.
 *
 * @packageDocumentation
 */
export { NO_TRAITS } from "./schema/traits.js";
export { shapeName } from "./schema/builders.js";
export { concatBytes, isAsyncIterable, isWholeBody, plainBytes, readWholeBody, type WholeBody } from "./values/streams.js";
export { fillIdempotencyTokens, newIdempotencyToken } from "./values/idempotency.js";
export { setDataKey } from "./values/data-key.js";
export { encodeUtf8 } from "./values/utf8.js";
export { BODY_EXCERPT_LENGTH, createModeledError } from "./errors/errors.js";
export { binaryBody, bodyBytes, parseQuery, queryPairProblem } from "./protocol/http.js";
export { sortFieldPairs } from "./protocol/headers.js";
export { isThenable } from "./values/thenable.js";
export { percentEncodingProblem } from "./protocol/percent-encoding.js";
export { acceptsMediaType, baseMediaType } from "./protocol/media-type.js";
export { bodyMessage, findErrorSchema, sanitizeErrorType, VALIDATION_EXCEPTION_ID, validationExceptionSchema } from "./protocol/error-type.js";
export { DEFAULT_BODY_LIMIT, gunzip, type GunzipLimit, gunzipRequest, gzip, isBlank, isGzipEncoded, readBody } from "./protocol/body.js";
export { CLIENT_INPUT_DEFAULTS, correctRequired, fillDefaults, SERVER_OUTPUT_DEFAULTS } from "./values/defaults.js";
export type { DefaultsMode } from "./values/defaults.js";
export { DEADLINE_EXCEEDED } from "./protocol/protocol.js";
export { OutputBuffer } from "./codec-buffer.js";
export { CodecFailure, codecError, codecFail, escapePointerSegment, rethrowAt } from "./codec-failure.js";
export { compileValidator, hasConstraints, NO_VIOLATIONS_VALIDATOR } from "./validation/validator.js";
export type { Validator } from "./validation/validator.js";
export { compilePattern, ecmaPatternSource, type PatternTest } from "./validation/pattern.js";
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
export { postRoutes, refuseTargetHeaders, rpcV2Path } from "./protocol/rpc-routes.js";
export { MAX_TIMER_MS, startTimer, stopTimer, untilAborted } from "./protocol/timers.js";
export type { Timer } from "./protocol/timers.js";
export type { PostRoute } from "./protocol/rpc-routes.js";
export { compileExampleMatcher } from "./fakes/match.js";
export type { ExampleMatcher } from "./fakes/match.js";
export { fakeAnswer } from "./fakes/answer.js";
export type { FakeAnswer, FakeExample, FakeOperation } from "./fakes/answer.js";
export { type ReceivedError, type JsonErrorBody, jsonErrorBody, requestIdOf, responseError, stringField } from "./protocol/error-response.js";
export { errorResponse, type ErrorResponseWriter } from "./protocol/server-errors.js";
export { CONNECTION_FIELDS } from "./protocol/connection-fields.js";
export { type EffectiveAuth, effectiveAuth, type HttpApiKeyTrait, httpApiKeyTrait, NO_AUTH } from "./protocol/auth.js";
