/**
 * The codec contract suite's shared pieces, built (`dist/`) for the plain
 * JavaScript of the nightly fuzz bench (`tooling/bench`): arbitraries for
 * Anvil's value model derived from schemas, untrusted inputs for readers,
 * and the contract model. Private; the suite's tests import the sources.
 *
 * @packageDocumentation
 */
export { arbitraryFor, firstDifference, normalizeInteger, ODD_KEYS, show } from "./arbitrary.js";
export type { ArbitraryOptions } from "./arbitrary.js";
export { concat, fuzzBytes, fuzzInputs, hostileClassics, JSON_CHARS, latin1, mutated, mutation, preview } from "./fuzz-inputs.js";
export type { Mutation } from "./fuzz-inputs.js";
export { CONTRACT_MODEL_FILE, CONTRACT_NS, CONTRACT_SHAPES } from "./contract-model.js";
