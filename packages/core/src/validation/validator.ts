/**
 * Input validation: compiles a schema once into a tree of closures that
 * check `@required`, `@length`, `@range`, `@pattern`, enum values and
 * `@uniqueItems` and report every violation with a JSON pointer, in the
 * wording of `smithy.framework#ValidationException`.
 *
 * Constraints live on members (a member's traits are already merged over its
 * target's), so each is applied once, where the value is reached. A subtree
 * without constraints compiles to nothing: its parent skips it, and a schema
 * without any constraint gets {@link NO_VIOLATIONS_VALIDATOR}.
 */
import { ValidationError, type ValidationField } from "../errors/errors.js";
import type { ListSchema, MapSchema, MemberSchema, Schema, StructSchema, UnionSchema } from "../schema/schema.js";
import type { Traits } from "../schema/traits.js";
import { hasOwnChecks, ownChecks } from "./checks.js";
import { acquire, NO_VIOLATIONS, REDACTED_SEGMENT, release, report, type Check } from "./context.js";
import { REQUIRED_CONSTRAINT } from "./messages.js";

/** Checks a value; returns its violations, or a shared frozen empty array when it is valid. */
export type Validator<T> = (value: T) => readonly ValidationField[];

/** The validator of every schema without constraints: it never looks at the value. */
export const NO_VIOLATIONS_VALIDATOR: Validator<unknown> = () => NO_VIOLATIONS;

// ------------------------------------------------------------ analysis

/** Whether the members, items or entries of a schema carry constraints, by schema. */
const childrenConstrained = new WeakMap<Schema, boolean>();

/** A member is checked by its structure (`@required`) or by its own traits and its target's children. */
function memberConstrained(m: MemberSchema, inStructure: boolean, stack: Map<Schema, number>): [boolean, number] {
  const traits = m.traits;
  if (inStructure && isRequired(traits)) return [true, Infinity];
  if (hasOwnChecks(traits, m.target)) return [true, Infinity];
  return analyze(m.target, stack);
}

const isRequired = (traits: Traits): boolean => traits.required === true && traits.default === undefined;

/**
 * Whether anything below `s` is constrained, and the lowest stack index of
 * a schema still being analysed that the answer depended on. A "no" that
 * depended on an unfinished schema (a cycle) is not cached; a "yes" always is.
 */
function analyze(s: Schema, stack: Map<Schema, number>): [boolean, number] {
  const known = childrenConstrained.get(s);
  if (known !== undefined) return [known, Infinity];
  const onStack = stack.get(s);
  if (onStack !== undefined) return [false, onStack];
  let members: readonly MemberSchema[];
  let inStructure = false;
  switch (s.kind) {
    case "structure":
      members = s.members;
      inStructure = true;
      break;
    case "union":
      members = s.members;
      break;
    case "list":
      members = [s.member];
      break;
    case "map":
      members = [s.key, s.value];
      break;
    default:
      childrenConstrained.set(s, false);
      return [false, Infinity];
  }
  const index = stack.size;
  stack.set(s, index);
  let low = Infinity;
  let result = false;
  for (const m of members) {
    const [c, l] = memberConstrained(m, inStructure, stack);
    if (c) {
      result = true;
      break;
    }
    low = Math.min(low, l);
  }
  stack.delete(s);
  if (result || low >= index) {
    childrenConstrained.set(s, result);
    return [result, Infinity];
  }
  return [false, low];
}

/** Whether validating values of `schema` can find anything (its own traits or anything below). */
export function hasConstraints(schema: Schema): boolean {
  return hasOwnChecks(schema.traits, schema) || analyze(schema, new Map())[0];
}

// ------------------------------------------------------------ compilation

/** The check of a schema's children (members, items, entries), or null when they are unconstrained. */
const childrenChecks = new WeakMap<Schema, Check | null>();
/** The check of a value reached through a member. */
const memberChecks = new WeakMap<MemberSchema, Check | null>();
const validators = new WeakMap<Schema, Validator<any>>();

function compileChildren(s: Schema): Check | null {
  const cached = childrenChecks.get(s);
  if (cached !== undefined) return cached;
  if (!analyze(s, new Map())[0]) {
    childrenChecks.set(s, null);
    return null;
  }
  // Each builder registers its check before compiling members, so recursive schemas terminate.
  switch (s.kind) {
    case "structure":
      return structureCheck(s);
    case "union":
      return unionCheck(s);
    case "list":
      return listCheck(s);
    case "map":
      return mapCheck(s);
    default:
      childrenChecks.set(s, null);
      return null;
  }
}

/** Own checks of `traits` on a value of `target`, then its children. */
function compileValue(traits: Traits, target: Schema): Check | null {
  const checks = ownChecks(traits, target);
  const children = compileChildren(target);
  if (children !== null) checks.push(children);
  if (checks.length === 0) return null;
  if (checks.length === 1) return checks[0]!;
  if (checks.length === 2) {
    const [a, b] = checks as [Check, Check];
    return (value, ctx) => {
      a(value, ctx);
      b(value, ctx);
    };
  }
  return (value, ctx) => {
    for (let i = 0; i < checks.length; i++) checks[i]!(value, ctx);
  };
}

function compileMember(m: MemberSchema): Check | null {
  let check = memberChecks.get(m);
  if (check === undefined) {
    check = compileValue(m.traits, m.target);
    memberChecks.set(m, check);
  }
  return check;
}

function structureCheck(s: StructSchema<unknown>): Check {
  const names: string[] = [];
  const checks: (Check | null)[] = [];
  const required: boolean[] = [];
  const nullable: boolean[] = [];
  const check: Check = (value, ctx) => {
    if (typeof value !== "object" || value === null) return;
    const obj = value as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const v = obj[name];
      if (v === undefined || v === null) {
        if (required[i] && !(v === null && nullable[i])) {
          ctx.segs[ctx.depth++] = name;
          report(ctx, REQUIRED_CONSTRAINT);
          ctx.depth--;
        }
        continue;
      }
      const c = checks[i];
      if (c != null) {
        ctx.segs[ctx.depth++] = name;
        c(v, ctx);
        ctx.depth--;
      }
    }
  };
  childrenChecks.set(s, check);
  for (const m of s.members) {
    const req = isRequired(m.traits);
    const c = compileMember(m);
    if (!req && c === null) continue;
    names.push(m.name);
    checks.push(c);
    required.push(req);
    nullable.push(m.traits.nullable === true);
  }
  return check;
}

function unionCheck(s: UnionSchema<unknown>): Check {
  const cases = new Map<string, Check>();
  const check: Check = (value, ctx) => {
    if (typeof value !== "object" || value === null) return;
    const u = value as { readonly $case?: unknown; readonly value?: unknown };
    const name = u.$case;
    if (typeof name !== "string") return;
    const c = cases.get(name); // `$unknown` variants are never in the map
    const v = u.value;
    if (c === undefined || v === undefined || v === null) return;
    ctx.segs[ctx.depth++] = name;
    c(v, ctx);
    ctx.depth--;
  };
  childrenChecks.set(s, check);
  for (const m of s.members) {
    const c = compileMember(m);
    if (c !== null) cases.set(m.name, c);
  }
  return check;
}

function listCheck(s: ListSchema<unknown>): Check {
  let item: Check | null = null;
  const check: Check = (value, ctx) => {
    if (item === null || !Array.isArray(value)) return;
    const depth = ctx.depth++;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v === undefined || v === null) continue; // sparse lists
      ctx.segs[depth] = i;
      item(v, ctx);
    }
    ctx.depth = depth;
  };
  childrenChecks.set(s, check);
  item = compileMember(s.member);
  return check;
}

function mapCheck(s: MapSchema<unknown>): Check {
  let key: Check | null = null;
  let entry: Check | null = null;
  const redact = s.key.traits.sensitive === true || s.traits.sensitive === true;
  const check: Check = (value, ctx) => {
    if (typeof value !== "object" || value === null) return;
    const obj = value as Record<string, unknown>;
    for (const k in obj) {
      if (!Object.hasOwn(obj, k)) continue;
      // Key violations are reported at the map's path, as the Smithy tests expect.
      if (key !== null) key(k, ctx);
      const v = obj[k];
      if (entry === null || v === undefined || v === null) continue;
      ctx.segs[ctx.depth++] = redact ? REDACTED_SEGMENT : k;
      entry(v, ctx);
      ctx.depth--;
    }
  };
  childrenChecks.set(s, check);
  key = compileMember(s.key);
  entry = compileMember(s.value);
  return check;
}

/**
 * The validator of a schema, compiled once and cached. Violations are
 * reported in member order, depth first: a value's own constraints (enum,
 * length, pattern, range, uniqueItems), then its members, items or entries.
 * Paths are JSON pointers (`/list/0/name`, `/map/<key>`); a map key's own
 * violations are reported at the map's path.
 */
export function compileValidator<T>(schema: Schema<T>): Validator<T> {
  let validator = validators.get(schema);
  if (validator === undefined) {
    const check = compileValue(schema.traits, schema);
    validator =
      check === null
        ? NO_VIOLATIONS_VALIDATOR
        : (value: T) => {
            const ctx = acquire();
            try {
              check(value, ctx);
            } catch (e) {
              ctx.out = undefined;
              release(ctx);
              throw e;
            }
            return release(ctx);
          };
    validators.set(schema, validator);
  }
  return validator as Validator<T>;
}

/** Validates a value against a schema (compiling the schema on first use). */
export function validateValue<T>(schema: Schema<T>, value: T): readonly ValidationField[] {
  return compileValidator(schema)(value);
}

/** Throws a {@link ValidationError} listing every violation when the value breaks the schema's constraints. */
export function assertValid<T>(schema: Schema<T>, value: T): void {
  const fields = compileValidator(schema)(value);
  if (fields.length > 0) throw new ValidationError(fields);
}
