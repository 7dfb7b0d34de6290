/**
 * `@streaming` blobs under protocols whose body is one document (AWS JSON,
 * RPC v2 CBOR and JSON): they have no binding for one, so operations with
 * such a member are refused on both sides instead of being sent with the
 * blob left out.
 */
import { SerializationError } from "../errors/errors.js";
import type { OperationSchema } from "../schema/schema.js";

/**
 * Throws a SerializationError naming the operation, the member and the
 * protocol when the operation has a `@streaming` blob, which a document
 * protocol cannot carry (neither side can exchange it; nothing is sent with
 * the blob left out).
 */
export function refuseStreamingBlob(protocol: string, operation: OperationSchema, side: "encode" | "decode"): void {
  for (const where of ["input", "output"] as const) {
    const blob = operation[where].members.find((m) => m.target.kind === "blob" && m.traits.streaming === true);
    if (blob === undefined) continue;
    throw new SerializationError(
      `${side} ${protocol}: operation ${operation.name} has a @streaming blob (${where} member ${blob.name}), which the ${protocol} protocol cannot carry; use a protocol with HTTP bindings such as restJson1`,
      { path: `/${blob.name}` },
    );
  }
}
