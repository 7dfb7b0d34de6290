/**
 * Where each member of an operation's input, output or error travels under
 * the HTTP binding traits (`@httpLabel`, `@httpQuery`, `@httpHeader`, ...).
 */
import { getHttpHeader, getHttpPrefixHeaders, getHttpQuery, hasTrait, type MemberShape, type Model } from "@anvil/model";

/** The location of a member in an HTTP message. */
export type BindingLocation = "label" | "query" | "queryParams" | "header" | "prefixHeaders" | "payload" | "responseCode" | "body";

/** A member with its location and wire name (label, query key, header name or prefix). */
export interface Binding {
  readonly member: MemberShape;
  readonly location: BindingLocation;
  /** The label, query key, header name or header prefix; the member name otherwise. */
  readonly name: string;
}

/** An operation's input or output id, `undefined` for none (`smithy.api#Unit`). */
export function structureOf(id: string | undefined): string | undefined {
  return id === undefined || id === "smithy.api#Unit" ? undefined : id;
}

/** The bindings of a structure's members, in declaration order. An absent structure has none. */
export function bindingsOf(model: Model, structureId: string | undefined): Binding[] {
  const shape = structureId === undefined ? undefined : model.getShape(structureId);
  if (shape === undefined) return [];
  const out: Binding[] = [];
  for (const member of shape.members.values()) {
    const header = getHttpHeader(member);
    const query = getHttpQuery(member);
    const prefix = getHttpPrefixHeaders(member);
    if (hasTrait(member, "smithy.api#httpLabel")) out.push({ member, location: "label", name: member.name });
    else if (query !== undefined) out.push({ member, location: "query", name: query });
    else if (hasTrait(member, "smithy.api#httpQueryParams")) out.push({ member, location: "queryParams", name: member.name });
    else if (header !== undefined) out.push({ member, location: "header", name: header });
    else if (prefix !== undefined) out.push({ member, location: "prefixHeaders", name: prefix });
    else if (hasTrait(member, "smithy.api#httpPayload")) out.push({ member, location: "payload", name: member.name });
    else if (hasTrait(member, "smithy.api#httpResponseCode")) out.push({ member, location: "responseCode", name: member.name });
    else out.push({ member, location: "body", name: member.name });
  }
  return out;
}
