/** Compiles a schema into its converter, once per schema and settings. */
import type { MemberSchema, Schema, TimestampFormat } from "@anvil/core";
import { Failure } from "../failure.js";
import { timestampFormatOf } from "../schema-info.js";
import type { ResolvedSettings } from "../settings.js";
import { listReader, mapReader } from "./collections.js";
import { documentReader } from "./document.js";
import type { Conv } from "./pass.js";
import { scalarReader } from "./scalars.js";
import { structReader } from "./struct.js";
import { discriminatedReader, untaggedReader, unionReader } from "./unions.js";

const convs = new WeakMap<Schema, Map<string, Conv>>();

/** The converter of a member: its target's, with the member's timestamp format. */
export function compileMember(member: MemberSchema, s: ResolvedSettings): Conv {
  return compileSchema(member.target, s, timestampFormatOf(member.traits, s));
}

/**
 * The converter of a schema; `format` applies when it is a timestamp.
 * Aggregates are cached per schema and settings, and registered before their
 * members are compiled, so that recursive shapes resolve to the same converter.
 */
export function compileSchema(schema: Schema, s: ResolvedSettings, format: TimestampFormat): Conv {
  const scalar = scalarReader(schema, s, format);
  if (scalar !== undefined) return scalar;
  if (schema.kind === "document") return documentReader(s.maxDepth);
  let bySettings = convs.get(schema);
  if (bySettings === undefined) convs.set(schema, (bySettings = new Map()));
  const cached = bySettings.get(s.key);
  if (cached !== undefined) return cached;
  switch (schema.kind) {
    case "list":
      return listReader(schema.member, schema.traits.sparse === true, s, bySettings);
    case "map":
      return mapReader(schema.value, schema.traits.sparse === true, s, bySettings);
    case "structure":
      return structReader(schema, s, bySettings);
    case "union":
      if (s.alloyTraits && schema.traits.discriminated !== undefined) return discriminatedReader(schema, schema.traits.discriminated, s, bySettings);
      if (s.alloyTraits && schema.traits.untagged) return untaggedReader(schema, s, bySettings);
      return unionReader(schema, s, bySettings);
    default:
      throw new Failure(`unsupported schema kind ${(schema as { kind: string }).kind}`);
  }
}
