import type { Codec } from "@anvil/core";
import { compileReader } from "./reader.js";
import type { CborSettings } from "./settings.js";
import { compileWriter } from "./writer.js";

/** The CBOR codec (`application/cbor`), as protocols take it. Readers and writers are cached per schema and settings. */
export const cborCodec: Codec<CborSettings> = Object.freeze({
  mediaType: "application/cbor",
  reader: compileReader,
  writer: compileWriter,
});
