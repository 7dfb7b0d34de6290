/**
 * `@anvil/codec-json`: JSON readers and writers compiled from Anvil schemas,
 * for restJson1, awsJson1_0/1_1 and alloy's simpleRestJson.
 *
 * @packageDocumentation
 */
export { compileReader } from "./reader.js";
export type { JsonReader } from "./reader.js";
export { compileWriter } from "./writer.js";
export type { JsonWriter } from "./writer.js";
export { jsonCodec } from "./codec.js";
export type { JsonSettings } from "./settings.js";
export { decodeBase64, encodeBase64 } from "./base64.js";
export { formatDateTime, formatHttpDate, parseDateTime, parseHttpDate } from "./timestamps.js";
