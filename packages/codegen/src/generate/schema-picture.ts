/**
 * A plain, comparable picture of runtime schemas, for tests that compare
 * generated schemas with `@anvil/dynamic`'s field by field.
 *
 * @internal
 */
import { BigDecimal, type MemberSchema, type OperationSchema, type Schema, type ServiceSchema } from "@anvil/core";
import * as builders from "@anvil/core/codegen";

const SHARED = new Set<unknown>(Object.values(builders));

/** A plain, comparable picture of a runtime value (trait values, defaults). */
function plain(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.getTime() };
  if (value instanceof Uint8Array) return { $bytes: [...value], frozen: Object.isFrozen(value) };
  if (BigDecimal.is(value)) return { $decimal: value.toString() };
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (typeof value === "number" && Number.isNaN(value)) return { $nan: true };
  if (Array.isArray(value)) return { $array: value.map(plain), frozen: Object.isFrozen(value) };
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = plain((value as Record<string, unknown>)[key]);
    return { $object: out, frozen: Object.isFrozen(value) };
  }
  return value;
}

/** Traits without the frozen flag at their top level: trait objects themselves need not be frozen. */
function traits(value: object): unknown {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    out[key] = key === "default" ? plain(v) : strip(plain(v));
  }
  return out;
}

/** Drops `frozen` marks (outside defaults, frozenness is not part of the contract). */
function strip(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const v = value as { $array?: unknown[]; $object?: Record<string, unknown> };
  if (v.$array) return { $array: v.$array.map(strip) };
  if (v.$object) return { $object: Object.fromEntries(Object.entries(v.$object).map(([k, x]) => [k, strip(x)])) };
  return value;
}

function memberPicture(m: MemberSchema): unknown {
  return { name: m.name, target: m.target.id, shared: SHARED.has(m.target), traits: traits(m.traits) };
}

/** Every data schema reachable from a service, by id. */
function shapesOf(service: ServiceSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const visit = (s: Schema) => {
    if (Object.hasOwn(out, s.id)) return;
    const picture: Record<string, unknown> = { kind: s.kind, traits: traits(s.traits), shared: SHARED.has(s) };
    out[s.id] = picture;
    let members: readonly MemberSchema[] = [];
    if (s.kind === "structure" || s.kind === "union") members = s.members;
    else if (s.kind === "list") members = [s.member];
    else if (s.kind === "map") members = [s.key, s.value];
    if (s.kind === "enum" || s.kind === "intEnum") picture.values = s.values.map((v) => ({ ...v }));
    picture.members = members.map(memberPicture);
    for (const m of members) visit(m.target);
  };
  for (const op of Object.values(service.operations)) {
    visit(op.input);
    visit(op.output);
    op.errors.forEach(visit);
  }
  service.errors.forEach(visit);
  return out;
}

function operationPicture(op: OperationSchema): unknown {
  return { id: op.id, name: op.name, input: op.input.id, output: op.output.id, errors: op.errors.map((e) => e.id), traits: traits(op.traits) };
}

/** The picture of a service: its fields, operations and every data schema it reaches. */
export function servicePicture(s: ServiceSchema): unknown {
  const operations: Record<string, unknown> = {};
  for (const [key, op] of Object.entries(s.operations)) operations[key] = operationPicture(op);
  return {
    id: s.id,
    name: s.name,
    version: s.version,
    protocols: [...s.protocols],
    auth: [...s.auth],
    errors: s.errors.map((e) => e.id),
    traits: traits(s.traits),
    operations,
    shapes: shapesOf(s),
  };
}

