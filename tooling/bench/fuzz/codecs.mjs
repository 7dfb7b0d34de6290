// Fuzz targets: the schema-compiled JSON and CBOR readers, over the codec
// contract's model (every shape type, wire names, timestamps, sparse
// collections, recursion, unions, big numbers, documents, defaults). Inputs:
// the contract suite's untrusted bytes (random, alphabet-shaped, mutated
// encodings of values generated from the schemas), this bench's edge
// vectors on their own and in each member's place, and, for JSON, encodings
// with an edge token spliced in.
import { readFileSync } from "node:fs";
import { arbitraryFor, CONTRACT_MODEL_FILE, CONTRACT_SHAPES, fuzzBytes, hostileClassics, mutated, preview } from "@anvil/codec-contract";
import { cborCodec } from "@anvil/codec-cbor";
import { jsonCodec } from "@anvil/codec-json";
import { SerializationError } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import fc from "fast-check";
import { cborEdges, jsonEdges, jsonSpliced } from "./seeds.mjs";

/** The contract model's shapes, built at run time. */
function contractSchemas() {
  const { model } = loadModel({ sources: [{ file: CONTRACT_MODEL_FILE, text: readFileSync(CONTRACT_MODEL_FILE, "utf8") }] });
  const schemas = schemasFromModel(model);
  return CONTRACT_SHAPES.map((id) => schemas.shape(id));
}

/** A reader target over every contract shape: input `{ shape, bytes }`. */
function codecTarget({ codec, settings, json }) {
  const schemas = contractSchemas();
  const readers = schemas.map((s) => codec.reader(s, settings));
  const writers = schemas.map((s) => codec.writer(s, settings));
  const edges = [...(json ? jsonEdges(schemas) : cborEdges(schemas)), ...hostileClassics(20_000)];
  const perShape = schemas.map((schema, i) => {
    const valid = fc.sample(arbitraryFor(schema, { maxDepth: 3, maxLength: 4 }), { numRuns: 40, seed: 42 + i }).map((v) => writers[i](v));
    const arms = [
      { arbitrary: fuzzBytes(valid, json), weight: 4 },
      { arbitrary: fc.constantFrom(...edges), weight: 1 },
      { arbitrary: mutated(edges, json), weight: 1 },
      ...(json ? [{ arbitrary: jsonSpliced(valid), weight: 2 }] : []),
    ];
    return fc.oneof(...arms).map((bytes) => ({ shape: i, bytes }));
  });
  return {
    seeds: edges.length,
    arbitrary: fc.integer({ min: 0, max: schemas.length - 1 }).chain((i) => perShape[i]),
    run: ({ shape, bytes }) => readers[shape](bytes),
    isTyped: (error) => SerializationError.is(error),
    describe: ({ shape, bytes }) => `${schemas[shape].id} reading ${preview(bytes, 400)}`,
  };
}

export const json = {
  decoder: "@anvil/codec-json reader (schema-compiled, JSON names as restJson1 reads them), 16 contract shapes",
  typed: "SerializationError",
  setup: () => codecTarget({ codec: jsonCodec, settings: { useJsonName: true }, json: true }),
};

export const cbor = {
  decoder: "@anvil/codec-cbor reader (schema-compiled), 16 contract shapes",
  typed: "SerializationError",
  setup: () => codecTarget({ codec: cborCodec, settings: undefined, json: false }),
};
