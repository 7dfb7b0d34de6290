/**
 * `@anvil/model`: loads Smithy IDL 2.0 and JSON AST models with the prelude and
 * Anvil's bundled traits, validates them, and offers a semantic API.
 *
 * @packageDocumentation
 */
export { loadModel, findModelFiles, MAX_MODEL_FILE_BYTES } from "./load-model.js";
export type { LoadModelOptions, LoadModelResult, ModelSource } from "./load-model.js";
export { Model, PRELUDE_NAMESPACE } from "./model.js";
export type { MemberShape, Shape, ShapeType, SimpleShapeType, Traits } from "./shape.js";
export { SHAPE_TYPES, SIMPLE_TYPES, LIFECYCLE_OPERATIONS } from "./shape.js";
export type { NodeObject, NodeValue } from "./node-value.js";
export {
  copyExactNumbers,
  exactNumberText,
  isNodeNumber,
  isNodeObject,
  nodeEquals,
  nodeTypeName,
  numberFromText,
  stringifyNode,
} from "./node-value.js";
export type { SourceLocation } from "./source-location.js";
export { formatLocation } from "./source-location.js";
export type { Severity, ValidationEvent } from "./validation-event.js";
export { formatEvent, hasErrors, SEVERITIES } from "./validation-event.js";
export {
  isAbsoluteShapeId,
  isIdentifier,
  isNamespace,
  isRelativeShapeId,
  nameOf,
  namespaceOf,
  splitShapeId,
  withoutMember,
} from "./shape-id.js";
export type { ShapeIdParts } from "./shape-id.js";
export { flattenMixins, modelToJsonAst } from "./json-ast.js";
export type { JsonAst, JsonAstOptions } from "./json-ast.js";
export { serviceClosure, serviceProtocols } from "./service-index.js";
export type { ServiceClosure } from "./service-index.js";
export { validateModel } from "./validation/validate-model.js";
export { applySuppressions } from "./validation/suppressions.js";
export type { ValidateOptions } from "./validation/validate-model.js";
export { validateExampleValue, validateNodeValue } from "./validation/node-validator.js";
export type { NodeProblem } from "./validation/node-validator.js";
export { uriLabels } from "./validation/anvil-rules.js";
export { matchesSelector, parseSelector, selectShapes, SelectorSyntaxError } from "./selector/index.js";
export type { Selector } from "./selector/index.js";
export {
  getDefault,
  getDocumentation,
  getEnumValue,
  getErrorKind,
  getExamples,
  getHttp,
  getHttpError,
  getHttpHeader,
  getHttpPrefixHeaders,
  getHttpQuery,
  getJsonName,
  getLength,
  getMediaType,
  getPaginated,
  getPattern,
  getProtoIndex,
  getProtoNumType,
  getRange,
  getRetryable,
  getTimestampFormat,
  hasTrait,
  isIdempotencyToken,
  isRequired,
  isSensitive,
  isSparse,
  isStreaming,
} from "./trait-accessors.js";
export type { Bounds, HttpTrait, OperationExample, Paginated, Traitable } from "./trait-accessors.js";
