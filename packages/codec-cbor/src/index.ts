/**
 * `@anvil/codec-cbor`: schema-compiled CBOR readers and writers for the
 * Smithy RPC v2 CBOR protocol, on cbor-x.
 *
 * @packageDocumentation
 */
export type { CborSettings } from "./settings.js";
export { compileReader } from "./reader.js";
export type { CborReader } from "./reader.js";
export { compileWriter } from "./writer.js";
export type { CborWriter } from "./writer.js";
export { cborCodec } from "./codec.js";
