/**
 * `@anvil/fakes`: fakes from a model's `@examples`, built from runtime
 * schemas. {@link fakeOperation} turns an operation's examples into the
 * table a fake answers from (synthesizing what the examples leave out),
 * {@link createFakeHandler} serves those tables and {@link createFakeClient}
 * answers from them in memory, whether built at run time or generated. The answering rules
 * themselves (example matching) are `@anvil/core`'s `fakeAnswer`, shared
 * with generated fakes.
 *
 * @packageDocumentation
 */
export { createFakeClient, createFakeHandler } from "./create-fake.js";
export type { FakeCall, FakeClientOptions, FakeHandlerOptions, FakeTables } from "./create-fake.js";
export { fakeOperation } from "./fake-operation.js";
export type { OperationExample } from "./fake-operation.js";
export { patternString } from "./pattern.js";
export { completeStructure, synthesize, SYNTHESIZED_INSTANT, UnterminatedRecursionError } from "./synthesize.js";
