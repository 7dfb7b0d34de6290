/**
 * The JSON codec as a {@link Codec} value, for protocols that take codecs.
 */
import type { Codec, Schema, ShapeReader, ShapeWriter } from "@anvil/core";
import { compileReader } from "./reader.js";
import type { JsonSettings } from "./settings.js";
import { compileWriter } from "./writer.js";

/** JSON (`application/json`): readers take UTF-8 bytes, writers return UTF-8 bytes. Compiled and cached per schema and settings. */
export const jsonCodec: Codec<JsonSettings> = Object.freeze({
  mediaType: "application/json",
  reader<T>(schema: Schema<T>, settings?: JsonSettings): ShapeReader<T> {
    return compileReader(schema, settings);
  },
  writer<T>(schema: Schema<T>, settings?: JsonSettings): ShapeWriter<T> {
    return compileWriter(schema, settings).toBytes;
  },
});
