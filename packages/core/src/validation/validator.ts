/**
 * Input validation: compiles a schema once into a tree of closures that
 * check `@required`, `@length`, `@range`, `@pattern`, enum values and
 * `@uniqueItems` and report every violation with a JSON pointer, in the
 * wording of `smithy.framework#ValidationException`. Each check has a test
 * twin that only answers "valid?" (no path, stops at the first violation):
 * valid values, the usual case, are only tested.
 *
 * Constraints live on members (a member's traits are already merged over its
 * target's), so each is applied once, where the value is reached. A subtree
 * without constraints compiles to nothing: its parent skips it, and a schema
 * without any constraint gets {@link NO_VIOLATIONS_VALIDATOR}.
 */
import { ValidationError, type ValidationField } from "../errors/errors.js";
import type { ListSchema, MapSchema, MemberSchema, Schema, StructSchema, UnionSchema } from "../schema/schema.js";
import type { Traits } from "../schema/traits.js";
import { hasOwnChecks, ownRules } from "./checks.js";
import { acquire, NO_VIOLATIONS, REDACTED_SEGMENT, release, report, type Check, type Rule, type Test } from "./context.js";
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

/** The rule of a schema's children (members, items, entries), or null when they are unconstrained. */
const childrenRules = new WeakMap<Schema, Rule | null>();
/** The rule of a value reached through a member. */
const memberRules = new WeakMap<MemberSchema, Rule | null>();
const validators = new WeakMap<Schema, Validator<any>>();

function compileChildren(s: Schema): Rule | null {
  const cached = childrenRules.get(s);
  if (cached !== undefined) return cached;
  if (!analyze(s, new Map())[0]) {
    childrenRules.set(s, null);
    return null;
  }
  // Each builder registers its rule before compiling members, so recursive schemas terminate.
  switch (s.kind) {
    case "structure":
      return structureRule(s);
    case "union":
      return unionRule(s);
    case "list":
      return listRule(s);
    case "map":
      return mapRule(s);
    default:
      childrenRules.set(s, null);
      return null;
  }
}

/** @internal The rule of a schema's values (its own traits, then its children), or null when nothing is checked. */
export function compileRule(schema: Schema): Rule | null {
  return compileValue(schema.traits, schema);
}

/** Own rules of `traits` on a value of `target`, then its children. */
function compileValue(traits: Traits, target: Schema): Rule | null {
  const rules = ownRules(traits, target);
  const children = compileChildren(target);
  if (children !== null) rules.push(children);
  return allOf(rules);
}

/** One rule applying `rules` in order, or null when there are none. */
function allOf(rules: readonly Rule[]): Rule | null {
  if (rules.length <= 1) return rules[0] ?? null;
  const tests = rules.map((r) => r.test);
  const checks = rules.map((r) => r.check);
  if (rules.length === 2) {
    const [ta, tb] = tests as [Test, Test];
    const [ca, cb] = checks as [Check, Check];
    return {
      test: (value) => ta(value) && tb(value),
      check: (value, ctx) => {
        ca(value, ctx);
        cb(value, ctx);
      },
    };
  }
  return {
    test: (value) => {
      for (let i = 0; i < tests.length; i++) if (!tests[i]!(value)) return false;
      return true;
    },
    check: (value, ctx) => {
      for (let i = 0; i < checks.length; i++) checks[i]!(value, ctx);
    },
  };
}

function compileMember(m: MemberSchema): Rule | null {
  let rule = memberRules.get(m);
  if (rule === undefined) {
    rule = compileValue(m.traits, m.target);
    memberRules.set(m, rule);
  }
  return rule;
}

function structureRule(s: StructSchema<unknown>): Rule {
  const names: string[] = [];
  const tests: (Test | null)[] = [];
  const checks: (Check | null)[] = [];
  const required: boolean[] = [];
  const nullable: boolean[] = [];
  const test: Test = (value) => {
    if (typeof value !== "object" || value === null) return true;
    const obj = value as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) {
      const v = obj[names[i]!];
      if (v === undefined || v === null) {
        if (required[i] && !(v === null && nullable[i])) return false;
        continue;
      }
      const t = tests[i];
      if (t != null && !t(v)) return false;
    }
    return true;
  };
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
  const rule: Rule = { test, check };
  childrenRules.set(s, rule);
  for (const m of s.members) {
    const req = isRequired(m.traits);
    const r = compileMember(m);
    if (!req && r === null) continue;
    names.push(m.name);
    tests.push(r === null ? null : r.test);
    checks.push(r === null ? null : r.check);
    required.push(req);
    nullable.push(m.traits.nullable === true);
  }
  return rule;
}

function unionRule(s: UnionSchema<unknown>): Rule {
  const cases = new Map<string, Rule>();
  /** The variant's value and its rule, or undefined when there is nothing to check. */
  const variant = (value: unknown): [string, unknown, Rule] | undefined => {
    if (typeof value !== "object" || value === null) return undefined;
    const u = value as { readonly $case?: unknown; readonly value?: unknown };
    const name = u.$case;
    if (typeof name !== "string") return undefined;
    const r = cases.get(name); // `$unknown` variants are never in the map
    const v = u.value;
    if (r === undefined || v === undefined || v === null) return undefined;
    return [name, v, r];
  };
  const rule: Rule = {
    test: (value) => {
      const found = variant(value);
      return found === undefined || found[2].test(found[1]);
    },
    check: (value, ctx) => {
      const found = variant(value);
      if (found === undefined) return;
      ctx.segs[ctx.depth++] = found[0];
      found[2].check(found[1], ctx);
      ctx.depth--;
    },
  };
  childrenRules.set(s, rule);
  for (const m of s.members) {
    const r = compileMember(m);
    if (r !== null) cases.set(m.name, r);
  }
  return rule;
}

function listRule(s: ListSchema<unknown>): Rule {
  let itemTest: Test | null = null;
  let itemCheck: Check | null = null;
  const rule: Rule = {
    test: (value) => {
      if (itemTest === null || !Array.isArray(value)) return true;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (v !== undefined && v !== null && !itemTest(v)) return false; // sparse lists hold nulls
      }
      return true;
    },
    check: (value, ctx) => {
      if (itemCheck === null || !Array.isArray(value)) return;
      const depth = ctx.depth++;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (v === undefined || v === null) continue; // sparse lists
        ctx.segs[depth] = i;
        itemCheck(v, ctx);
      }
      ctx.depth = depth;
    },
  };
  childrenRules.set(s, rule);
  const item = compileMember(s.member);
  if (item !== null) ({ test: itemTest, check: itemCheck } = item);
  return rule;
}

function mapRule(s: MapSchema<unknown>): Rule {
  let key: Rule | null = null;
  let entry: Rule | null = null;
  const redact = s.key.traits.sensitive === true || s.traits.sensitive === true;
  const rule: Rule = {
    test: (value) => {
      if (typeof value !== "object" || value === null) return true;
      const obj = value as Record<string, unknown>;
      for (const k in obj) {
        if (!Object.hasOwn(obj, k)) continue;
        if (key !== null && !key.test(k)) return false;
        const v = obj[k];
        if (entry !== null && v !== undefined && v !== null && !entry.test(v)) return false;
      }
      return true;
    },
    check: (value, ctx) => {
      if (typeof value !== "object" || value === null) return;
      const obj = value as Record<string, unknown>;
      for (const k in obj) {
        if (!Object.hasOwn(obj, k)) continue;
        // Key violations are reported at the map's path, as the Smithy tests expect.
        if (key !== null) key.check(k, ctx);
        const v = obj[k];
        if (entry === null || v === undefined || v === null) continue;
        ctx.segs[ctx.depth++] = redact ? REDACTED_SEGMENT : k;
        entry.check(v, ctx);
        ctx.depth--;
      }
    },
  };
  childrenRules.set(s, rule);
  key = compileMember(s.key);
  entry = compileMember(s.value);
  return rule;
}

/**
 * The validator of a schema, compiled once and cached. Violations are
 * reported in member order, depth first: a value's own constraints (enum,
 * length, pattern, range, uniqueItems), then its members, items or entries.
 * Paths are JSON pointers (`/list/0/name`, `/map/<key>`); a map key's own
 * violations are reported at the map's path. A valid value is only tested
 * (no path kept, nothing allocated); the reporting walk runs when a test fails.
 */
export function compileValidator<T>(schema: Schema<T>): Validator<T> {
  let validator = validators.get(schema);
  if (validator === undefined) {
    const rule = compileRule(schema);
    if (rule === null) validator = NO_VIOLATIONS_VALIDATOR;
    else {
      const { test, check } = rule;
      validator = (value: T) => {
        if (test(value)) return NO_VIOLATIONS;
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
    }
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
