/**
 * The server's media-type checks, done before a request's input is read:
 * its `Content-Type` must be the one the operation's input is written in
 * (415 otherwise), and its `Accept`, when given, must admit the one the
 * output is written in (406 otherwise). Media-type parameters
 * (`; charset=utf-8`) and `Accept` wildcards and q-values are honoured.
 *
 * @internal
 */
import { type MemberSchema, type OperationSchema, ProtocolError, type StructSchema } from "@anvil/core";
import { acceptsMediaType, baseMediaType } from "@anvil/core/protocol";
import { bindingsOf, type Direction, type HttpBindingSettings, isJsonPayload, JSON_MEDIA_TYPE, UNIT } from "./bindings.js";

/** The media type a message is written in: none (no body), a type, or any (not checked: event streams). */
type Expected = { readonly kind: "none" } | { readonly kind: "type"; readonly type: string } | { readonly kind: "any" };

const NONE: Expected = Object.freeze({ kind: "none" });
const ANY: Expected = Object.freeze({ kind: "any" });

/**
 * The media type a structure's body is written in, as `writeBody` writes
 * it. An input with members but none in the body (all bound to the path,
 * query or headers) takes no body; an input without members at all may
 * still come as `{}`.
 */
function expectedOf(settings: HttpBindingSettings, schema: StructSchema, direction: Direction): Expected {
  const plan = bindingsOf(schema, direction);
  if (plan.payload !== undefined) return payloadType(settings, plan.payload);
  if (plan.body !== undefined || direction === "response" || schema.members.length === 0) return schema.id === UNIT ? NONE : JSON_TYPE;
  return NONE;
}

const JSON_TYPE: Expected = Object.freeze({ kind: "type", type: JSON_MEDIA_TYPE });

function payloadType(settings: HttpBindingSettings, payload: MemberSchema): Expected {
  const target = payload.target;
  // Event streams negotiate their own framing.
  if (target.kind === "union" && payload.traits.streaming) return ANY;
  const declared = payload.traits.mediaType;
  if (declared !== undefined) return { kind: "type", type: baseMediaType(declared) };
  if (!settings.rawPayloads || isJsonPayload(target)) return JSON_TYPE;
  // Bytes without a declared media type may be of any type.
  if (target.kind === "blob") return ANY;
  return { kind: "type", type: "text/plain" };
}

/** Checks a request's `Content-Type` and `Accept` (see {@link mediaTypeCheckOf}). */
export type MediaTypeCheck = (headers: Headers, bodyLength: number) => void;

/**
 * The check of a request's `Content-Type` and `Accept` against the
 * operation, worked out once per operation; it throws a ProtocolError (415
 * `UnsupportedMediaTypeException`, 406 `NotAcceptableException`) when they
 * do not fit. A body needs the input's content type; an operation without a
 * body refuses a typed one (a `Content-Type` on an empty body, or an untyped
 * body, is ignored).
 */
export function mediaTypeCheckOf(settings: HttpBindingSettings, operation: OperationSchema): MediaTypeCheck {
  const request = expectedOf(settings, operation.input, "request");
  const response = operation.output.id === UNIT ? ANY : expectedOf(settings, operation.output, "response");
  return (headers, bodyLength) => {
    const contentType = headers.get("content-type");
    if (request.kind === "none" && bodyLength > 0 && contentType !== null) {
      throw new ProtocolError("UnsupportedMediaTypeException", 415, `${operation.name} takes no body, but the request has a body of type ${contentType}`);
    }
    if (request.kind === "type" && (contentType === null ? bodyLength > 0 : baseMediaType(contentType) !== request.type)) {
      throw new ProtocolError("UnsupportedMediaTypeException", 415, `${operation.name} expects Content-Type ${request.type}, got ${contentType ?? "none"}`);
    }
    const accept = headers.get("accept");
    if (accept !== null && response.kind === "type" && !acceptsMediaType(accept, response.type)) {
      throw new ProtocolError("NotAcceptableException", 406, `${operation.name} answers ${response.type}, which Accept: ${accept} does not admit`);
    }
  };
}
