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

const MAX_FIELD_NUMBER = 2 ** 29 - 1;

/**
 * Rejects field numbers protobuf does not allow in one message: outside
 * 1 … 2^29−1, in the range 19000 … 19999 reserved by protobuf, or used twice.
 * Throws a TypeError naming the schema (a model mistake, found when compiling).
 */
export function checkFieldNumbers(id: string, fields: readonly { readonly member: { readonly name: string }; readonly number: number }[]): void {
  const seen = new Map<number, string>();
  for (const { member, number } of fields) {
    if (!Number.isInteger(number) || number < 1 || number > MAX_FIELD_NUMBER || (number >= 19000 && number <= 19999)) {
      throw new TypeError(`protobuf: ${id}$${member.name} has field number ${number}; use 1 to ${MAX_FIELD_NUMBER}, outside 19000-19999`);
    }
    const prior = seen.get(number);
    if (prior !== undefined) throw new TypeError(`protobuf: ${id}$${prior} and $${member.name} both use field number ${number}`);
    seen.set(number, member.name);
  }
}

/** Every field of a structure's message, inlined oneof variants included (for {@link checkFieldNumbers}). */
export function flatFields(layout: readonly FieldLayout[]): readonly VariantLayout[] {
  return layout.flatMap((f) => f.variants ?? [{ member: f.member, number: f.number }]);
}
