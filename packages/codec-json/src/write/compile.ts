/** Compiles a schema into its encoder, once per schema and settings. */
import type { MemberSchema, Schema, TimestampFormat } from "@anvil/core";
import { Failure } from "../failure.js";
import { timestampFormatOf } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { listWriter, mapWriter } from "./collections.js";
import { documentWriter } from "./document.js";
import type { Enc } from "./enc.js";
import { scalarWriter } from "./scalars.js";
import { structWriter } from "./struct.js";
import { discriminatedWriter, untaggedWriter, unionWriter } from "./unions.js";

const encs = new WeakMap<Schema, Map<string, Enc>>();

/** The encoder of a member: its target's, with the member's timestamp format. */
export function compileMember(member: MemberSchema, s: ResolvedSettings): Enc {
  return compileSchema(member.target, s, timestampFormatOf(member.traits, s));
}

/**
 * The encoder of a schema; `format` applies when it is a timestamp.
 * Aggregates are cached per schema and settings, and registered before their
 * members are compiled, so that recursive shapes resolve to the same encoder.
 */
export function compileSchema(schema: Schema, s: ResolvedSettings, format: TimestampFormat): Enc {
  const scalar = scalarWriter(schema, s, format);
  if (scalar !== undefined) return scalar;
  if (schema.kind === "document") return documentWriter(s.maxDepth);
  let bySettings = encs.get(schema);
  if (bySettings === undefined) encs.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached;
  switch (schema.kind) {
    case "list":
      return listWriter(schema.member, schema.traits.sparse === true, s, bySettings);
    case "map":
      return mapWriter(schema.value, schema.traits.sparse === true, s, bySettings);
    case "structure":
      return structWriter(schema, s, bySettings);
    case "union":
      if (s.alloyTraits && schema.traits.discriminated !== undefined) return discriminatedWriter(schema, schema.traits.discriminated, s, bySettings);
      if (s.alloyTraits && schema.traits.untagged) return untaggedWriter(schema, s, bySettings);
      return unionWriter(schema, s, bySettings);
    default:
      throw new Failure(`unsupported schema kind ${(schema as { kind: string }).kind}`);
  }
}
