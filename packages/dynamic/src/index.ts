/**
 * `@anvil/dynamic`: builds Anvil runtime schemas from a Smithy model at run
 * time, so codecs and protocols work on a parsed model without code generation.
 *
 * @packageDocumentation
 */
export { schemasFromModel } from "./schemas-from-model.js";
export { operationKey } from "./operation-key.js";
export type { DynamicSchemas } from "./schemas-from-model.js";
export { NodeValueError, runtimeValue } from "./runtime-value.js";
export type { RuntimeValueOptions } from "./runtime-value.js";
export { operationTraits, schemaTraits, serviceTraits } from "./schema-traits.js";
export type { ServiceTraits } from "./schema-traits.js";
export { operationExamples } from "./examples.js";
export type { ExampleRef, RuntimeExample } from "./examples.js";
