/**
 * The proto layout of schemas: field numbers and enum numbers. The codec and
 * the `.proto` emitter both read it, so the bytes and the emitted file can
 * never disagree. Numbers follow alloy: `@protoIndex` when present, else
 * implicit numbers in model order (structure and union members from 1, an
 * inlined oneof taking one number per variant; string enum values from 0;
 * int enum values are their own numbers).
 */
import type { EnumSchema, IntEnumSchema, MemberSchema, Schema, UnionSchema } from "@anvil/core";

/** One field of a message. */
export interface FieldLayout {
  /** The structure or union member. */
  readonly member: MemberSchema;
  /** The field number (for an inlined oneof: unused, see `variants`). */
  readonly number: number;
  /** For a member targeting a `@protoInlinedOneOf` union: its variants, which are fields of this message. */
  readonly variants?: readonly VariantLayout[];
}

/** A variant of a oneof. */
export interface VariantLayout {
  readonly member: MemberSchema;
  readonly number: number;
}

const structLayouts = new WeakMap<readonly MemberSchema[], readonly FieldLayout[]>();

/** Whether a member's target is a union inlined into the containing message. */
export function isInlinedOneOf(member: MemberSchema): boolean {
  return member.target.kind === "union" && member.target.traits.protoInlinedOneOf === true;
}

/** The fields of a structure's message, in model order. */
export function structLayout(members: readonly MemberSchema[]): readonly FieldLayout[] {
  const cached = structLayouts.get(members);
  if (cached) return cached;
  const out: FieldLayout[] = [];
  let count = 0;
  for (const member of members) {
    const number = member.traits.protoIndex ?? count + 1;
    if (isInlinedOneOf(member)) {
      const variants = oneofLayout(member.target as UnionSchema, number);
      out.push({ member, number, variants });
      count += variants.length;
    } else {
      out.push({ member, number });
      count++;
    }
  }
  structLayouts.set(members, out);
  return out;
}

/** The variants of a union, numbered from `start` unless they carry `@protoIndex`. */
export function oneofLayout(union: UnionSchema<unknown>, start = 1): readonly VariantLayout[] {
  return union.members.map((member, i) => ({ member, number: member.traits.protoIndex ?? start + i }));
}

/** Enum numbers by value: string enums by position (from 0), int enums by value. */
export function enumNumbers(schema: EnumSchema | IntEnumSchema): ReadonlyMap<string | number, number> {
  const out = new Map<string | number, number>();
  schema.values.forEach((v, i) => out.set(v.value, schema.kind === "intEnum" ? (v.value as number) : i));
  return out;
}

/** Whether a schema is carried as its raw string or int32 rather than a proto enum (`@alloy#openEnum`). */
export function isOpenEnum(schema: Schema): boolean {
  return (schema.kind === "enum" || schema.kind === "intEnum") && schema.traits.openEnum === true;
}
