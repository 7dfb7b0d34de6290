/**
 * Call kinds: a `@streaming` union member of the input makes the call
 * client streaming, of the output server streaming, of both bidirectional.
 * The stream's messages are the union (its variants are the oneof fields);
 * the structure's other members have no place on the wire.
 *
 * @internal
 */
import type { MemberSchema, StructSchema, UnionSchema } from "@anvil/core";
import { untilAborted } from "@anvil/core/protocol";

/** A structure's `@streaming` union member. */
export interface StreamMember {
  readonly name: string;
  readonly schema: UnionSchema;
}

const cache = new WeakMap<StructSchema, StreamMember | null>();

/** The `@streaming` union member of an input or output structure, if it has one. */
export function streamMemberOf(structure: StructSchema): StreamMember | undefined {
  let found = cache.get(structure);
  if (found === undefined) {
    const member = structure.members.find((m: MemberSchema) => m.traits.streaming === true && m.target.kind === "union");
    found = member === undefined ? null : { name: member.name, schema: member.target as UnionSchema };
    cache.set(structure, found);
  }
  return found ?? undefined;
}

/** The `@streaming` blob member of a structure (gRPC cannot carry one), if it has one. */
export function streamingBlobOf(structure: StructSchema): MemberSchema | undefined {
  return structure.members.find((m) => m.traits.streaming === true && m.target.kind === "blob");
}

/**
 * The next value of an iterator, or the signal's reason as a rejection as
 * soon as it aborts (an event source that hangs does not hold a deadline up).
 */
export function nextOrAbort<T>(iterator: AsyncIterator<T>, signal: AbortSignal | undefined): Promise<IteratorResult<T>> {
  const next = iterator.next();
  return signal === undefined ? next : untilAborted(next, signal);
}
