/**
 * Semantic comparison of two Smithy JSON AST documents (the output of
 * `modelToJsonAst`). Differences that carry no meaning are normalized away
 * before comparing:
 *
 * - the `smithy` version string (both models are already loaded; a 1.0 vs 2.0
 *   difference that matters shows up in the shapes and traits themselves);
 * - object key order everywhere (shapes, members, traits, metadata, values);
 * - absent vs empty `metadata`, and absent vs empty shape properties
 *   (`traits: {}`, `members: {}`, `mixins: []`, `errors: []`, ...), on
 *   shapes and on members (including list `member` and map `key` / `value`);
 * - the order of `mixins`, `operations`, `resources` and
 *   `collectionOperations`, which Smithy models as sets;
 * - where a trait is written: in place or with `apply`, and on a shape or
 *   member or only on the mixin it inherits from (traits and members are
 *   compared by their effective values, see `effectiveView`). List and map
 *   members are compared under `members` (`members.member`, `members.key`).
 *
 * Arrays inside trait and metadata values stay order-sensitive.
 */

/** A JSON AST document as far as the comparison cares. */
export interface JsonAstDocument {
  readonly smithy?: string;
  readonly metadata?: Record<string, unknown>;
  readonly shapes?: Record<string, unknown>;
}

/** The canonical, comparable form of a JSON AST document. */
export interface CanonicalJsonAst {
  readonly metadata: Record<string, unknown>;
  readonly shapes: Record<string, unknown>;
}

/** Shape properties whose values are sets of references (order does not matter). */
export const SET_VALUED_PROPERTIES: ReadonlySet<string> = new Set(["mixins", "operations", "resources", "collectionOperations"]);

/** List and map member properties, normalized like entries of `members`. */
const MEMBER_PROPERTIES: ReadonlySet<string> = new Set(["member", "key", "value"]);

/** Options for {@link diffJsonAst}. */
export interface DiffOptions {
  /** Name of the first document in messages. Default `expected`. */
  readonly leftLabel?: string;
  /** Name of the second document in messages. Default `actual`. */
  readonly rightLabel?: string;
  /** Stop after this many differences. Default 10. */
  readonly limit?: number;
}

/** Drops non-semantic differences (see the module comment). */
export function canonicalJsonAst(doc: JsonAstDocument): CanonicalJsonAst {
  const declared = mergeApplies(doc.shapes ?? {});
  for (const [id, shape] of Object.entries(declared)) declared[id] = withNamedMembers(shape);
  const effective = effectiveView(declared);
  const shapes: Record<string, unknown> = {};
  for (const [id, shape] of Object.entries(effective)) shapes[id] = canonicalShape(shape);
  return { metadata: { ...(doc.metadata ?? {}) }, shapes };
}

/**
 * Folds `"type": "apply"` entries into the shape or member they target: an
 * applied trait and a trait written in place mean the same. An apply to a
 * member that is only inherited becomes a member entry without a target
 * (the effective view fills it in). Applies to shapes not in the document
 * (the prelude) stay as they are.
 */
function mergeApplies(input: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const shapes: Record<string, Record<string, unknown>> = {};
  const applies: [string, Record<string, unknown>][] = [];
  for (const [id, shape] of Object.entries(input)) {
    if (!isPlainObject(shape)) continue;
    if (shape["type"] === "apply") applies.push([id, shape]);
    else shapes[id] = structuredClone(shape);
  }
  for (const [id, apply] of applies) {
    const traits = isPlainObject(apply["traits"]) ? apply["traits"] : {};
    const dollar = id.indexOf("$");
    const container = shapes[dollar < 0 ? id : id.slice(0, dollar)];
    if (!container) {
      shapes[id] = structuredClone(apply);
      continue;
    }
    let holder: Record<string, unknown> = container;
    if (dollar >= 0) {
      const name = id.slice(dollar + 1);
      const listOrMapMember = container[name];
      holder = MEMBER_PROPERTIES.has(name) && isPlainObject(listOrMapMember) ? listOrMapMember : childObject(childObject(container, "members"), name);
    }
    holder["traits"] = { ...(isPlainObject(holder["traits"]) ? holder["traits"] : {}), ...structuredClone(traits) };
  }
  return shapes;
}

/** Moves list and map `member` / `key` / `value` into `members`, so every aggregate is handled alike. */
function withNamedMembers(shape: Record<string, unknown>): Record<string, unknown> {
  const out = { ...shape };
  for (const key of MEMBER_PROPERTIES) {
    if (!isPlainObject(out[key])) continue;
    const members = childObject(out, "members");
    members[key] = { ...(isPlainObject(members[key]) ? members[key] : {}), ...out[key] };
    delete out[key];
  }
  return out;
}

/**
 * Replaces each shape's traits and members by their effective values: what
 * its mixins give it (all traits but `smithy.api#mixin` and the mixin's
 * `localTraits`; all members, with their traits) overlaid with its own. A
 * trait written again where it is inherited, or an inherited member listed
 * without changes, then no longer makes a difference, as in Smithy, whose
 * model equality compares all traits including inherited ones.
 */
function effectiveView(shapes: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  interface View {
    traits: Record<string, unknown>;
    members: Record<string, Record<string, unknown>>;
  }
  const done = new Map<string, View>();
  const visiting = new Set<string>();
  const view = (id: string): View => {
    const cached = done.get(id);
    if (cached) return cached;
    const shape = shapes[id];
    const own: View = {
      traits: shape && isPlainObject(shape["traits"]) ? { ...shape["traits"] } : {},
      members: {},
    };
    if (shape && isPlainObject(shape["members"])) {
      for (const [name, m] of Object.entries(shape["members"])) own.members[name] = isPlainObject(m) ? { ...m } : {};
    }
    if (!shape || visiting.has(id)) return own; // unknown shape or a mixin cycle: no inheritance
    visiting.add(id);
    const traits: Record<string, unknown> = {};
    const members: Record<string, Record<string, unknown>> = {};
    for (const mixinId of mixinTargets(shape)) {
      const mixin = view(mixinId);
      const mixinTrait = shapes[mixinId]?.["traits"];
      const mixinValue = isPlainObject(mixinTrait) ? mixinTrait["smithy.api#mixin"] : undefined;
      const local = isPlainObject(mixinValue) && Array.isArray(mixinValue["localTraits"]) ? mixinValue["localTraits"] : [];
      for (const [k, v] of Object.entries(mixin.traits)) {
        if (k !== "smithy.api#mixin" && !local.includes(k)) traits[k] = v;
      }
      for (const [name, m] of Object.entries(mixin.members)) {
        const before = members[name];
        members[name] = {
          ...before,
          ...m,
          traits: { ...(isPlainObject(before?.["traits"]) ? before["traits"] : {}), ...(isPlainObject(m["traits"]) ? m["traits"] : {}) },
        };
      }
    }
    for (const [name, m] of Object.entries(own.members)) {
      const inherited = members[name] ?? {};
      members[name] = {
        ...inherited,
        ...m,
        traits: {
          ...(isPlainObject(inherited["traits"]) ? inherited["traits"] : {}),
          ...(isPlainObject(m["traits"]) ? m["traits"] : {}),
        },
      };
    }
    visiting.delete(id);
    const result: View = { traits: { ...traits, ...own.traits }, members };
    done.set(id, result);
    return result;
  };

  const out: Record<string, Record<string, unknown>> = {};
  for (const [id, shape] of Object.entries(shapes)) {
    if (shape["type"] === "apply") {
      out[id] = shape;
      continue;
    }
    const v = view(id);
    const next: Record<string, unknown> = { ...shape, traits: v.traits };
    if (Object.keys(v.members).length > 0) next["members"] = v.members;
    out[id] = next;
  }
  return out;
}

/** `parent[key]` as an object, created empty if absent. */
function childObject(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const existing = parent[key];
  if (isPlainObject(existing)) return existing;
  const created: Record<string, unknown> = {};
  parent[key] = created;
  return created;
}

function mixinTargets(shape: Record<string, unknown>): string[] {
  const mixins = shape["mixins"];
  if (!Array.isArray(mixins)) return [];
  return mixins.flatMap((m) => (isPlainObject(m) && typeof m["target"] === "string" ? [m["target"]] : []));
}

function canonicalShape(shape: unknown): unknown {
  if (!isPlainObject(shape)) return shape;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(shape)) {
    if (isEmptyContainer(value)) continue;
    if (key === "members" && isPlainObject(value)) {
      const members: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) members[name] = canonicalShape(member);
      out[key] = members;
    } else if (SET_VALUED_PROPERTIES.has(key) && Array.isArray(value)) {
      out[key] = [...value].sort((a, b) => {
        const x = stableStringify(a);
        const y = stableStringify(b);
        return x < y ? -1 : x > y ? 1 : 0;
      });
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The semantic differences between two JSON AST documents, as readable lines
 * (`shapes["a#B"].traits["smithy.api#required"]: only in expected`). Empty
 * when the documents are equal by meaning.
 */
export function diffJsonAst(left: JsonAstDocument, right: JsonAstDocument, options: DiffOptions = {}): string[] {
  const leftLabel = options.leftLabel ?? "expected";
  const rightLabel = options.rightLabel ?? "actual";
  const limit = options.limit ?? 10;
  const out: string[] = [];
  let total = 0;
  const report = (line: string): void => {
    total++;
    if (out.length < limit) out.push(line);
  };
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (isPlainObject(a) && isPlainObject(b)) {
      for (const key of Object.keys(a)) {
        const child = path + accessor(key);
        if (!Object.hasOwn(b, key)) report(`${child}: only in ${leftLabel} (${preview(a[key])})`);
        else walk(a[key], b[key], child);
      }
      for (const key of Object.keys(b)) {
        if (!Object.hasOwn(a, key)) report(`${path + accessor(key)}: only in ${rightLabel} (${preview(b[key])})`);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((item, i) => walk(item, b[i], `${path}[${i}]`));
      return;
    }
    if (!jsonEquals(a, b)) report(`${path}: ${leftLabel} ${preview(a)}, ${rightLabel} ${preview(b)}`);
  };
  const l = canonicalJsonAst(left);
  const r = canonicalJsonAst(right);
  walk(l.metadata, r.metadata, "metadata");
  walk(l.shapes, r.shapes, "shapes");
  if (total > out.length) out.push(`... and ${total - out.length} more difference(s)`);
  return out;
}

/** Whether two JSON AST documents are equal by meaning. */
export function jsonAstEquals(left: JsonAstDocument, right: JsonAstDocument): boolean {
  const l = canonicalJsonAst(left);
  const r = canonicalJsonAst(right);
  return jsonEquals(l.metadata, r.metadata) && jsonEquals(l.shapes, r.shapes);
}

/** Deep equality of JSON values; object key order does not matter, array order does. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEquals(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && jsonEquals(a[k], b[k]));
  }
  return false;
}

/** JSON with object keys sorted, so equal values give equal strings. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(value[k])}`).join(",")}}`;
  }
  if (typeof value === "bigint") return String(value);
  return JSON.stringify(value) ?? "undefined";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEmptyContainer(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isPlainObject(value) && Object.keys(value).length === 0;
}

function accessor(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function preview(value: unknown): string {
  const text = stableStringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
