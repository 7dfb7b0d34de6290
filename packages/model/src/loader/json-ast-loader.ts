/**
 * Reads a Smithy JSON AST document into the loader's intermediate form.
 *
 * @internal
 */
import {
  isApproximateNumber,
  isNodeObject,
  nodeTypeName,
  noteExactNumber,
  numberFromText,
  setNodeKey,
  type NodeObject,
  type NodeValue,
} from "../node-value.js";
import { SHAPE_TYPES, type ShapeType } from "../shape.js";
import { isAbsoluteShapeId, isIdentifier } from "../shape-id.js";
import type { SourceLocation } from "../source-location.js";
import type { ValidationEvent } from "../validation-event.js";
import type { ApplyDraft, FileDraft, MemberDraft, MetadataDraft, RefDraft, ShapeDraft, TraitDraft } from "./draft.js";

/** JSON AST versions this loader understands. */
const SUPPORTED_VERSIONS = new Set(["1", "1.0", "1.1", "2", "2.0"]);
/** Deeper JSON than this is rejected before it is walked (JSON.parse itself is iterative). */
export const MAX_JSON_DEPTH = 512;

const PROPS: Record<string, readonly string[]> = {
  simple: ["mixins", "traits", "type"],
  list: ["member", "mixins", "traits", "type"],
  map: ["key", "mixins", "traits", "type", "value"],
  aggregate: ["members", "mixins", "traits", "type"],
  service: ["errors", "mixins", "operations", "rename", "resources", "traits", "type", "version"],
  resource: [
    "collectionOperations",
    "create",
    "delete",
    "identifiers",
    "list",
    "mixins",
    "operations",
    "properties",
    "put",
    "read",
    "resources",
    "traits",
    "type",
    "update",
  ],
  operation: ["errors", "input", "mixins", "output", "traits", "type"],
  apply: ["traits", "type"],
  member: ["target", "traits"],
  top: ["metadata", "shapes", "smithy"],
};

function propsFor(type: string): readonly string[] {
  switch (type) {
    case "list":
    case "set":
      return PROPS.list!;
    case "map":
      return PROPS.map!;
    case "structure":
    case "union":
    case "enum":
    case "intEnum":
      return PROPS.aggregate!;
    case "service":
    case "resource":
    case "operation":
    case "apply":
      return PROPS[type]!;
    default:
      return PROPS.simple!;
  }
}

class JsonAstReader {
  readonly events: ValidationEvent[] = [];
  readonly shapes: ShapeDraft[] = [];
  readonly applies: ApplyDraft[] = [];
  readonly metadata: MetadataDraft[] = [];
  private lineStarts: number[] | undefined;
  /** Shapes are usually located in text order, so searches resume from the last hit. */
  private cursor = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  /** Locates the first occurrence of a quoted key; JSON.parse keeps no positions. */
  locate(key: string): SourceLocation {
    const needle = JSON.stringify(key);
    let at = this.text.indexOf(needle, this.cursor);
    if (at < 0) at = this.text.indexOf(needle);
    else this.cursor = at + needle.length;
    if (at < 0) return { file: this.file, line: 1, column: 1 };
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: at - this.lineStarts[lo]! + 1 };
  }

  error(message: string, shapeId?: string, location?: SourceLocation): void {
    this.events.push({ severity: "ERROR", id: "Model", message, location: location ?? this.locate(shapeId ?? ""), ...(shapeId ? { shapeId } : {}) });
  }

  warnExtraProperties(obj: NodeObject, allowed: readonly string[], shapeId: string | undefined, loc: SourceLocation): void {
    const extra = Object.keys(obj)
      .filter((k) => !allowed.includes(k))
      .sort();
    if (extra.length === 0) return;
    this.events.push({
      severity: "WARNING",
      id: "Model",
      message: `Expected an object with possible properties of ${allowed.map((p) => `\`${p}\``).join(", ")}, but found additional properties: ${extra.map((p) => `\`${p}\``).join(", ")}`,
      location: loc,
      ...(shapeId ? { shapeId } : {}),
    });
  }

  read(root: NodeValue): string {
    const loc: SourceLocation = { file: this.file, line: 1, column: 1 };
    if (!isNodeObject(root)) {
      this.error(`Expected the JSON AST to be an object; found ${nodeTypeName(root)}`, undefined, loc);
      return "2.0";
    }
    this.warnExtraProperties(root, PROPS.top!, undefined, loc);
    const version = root.smithy;
    let versionText = "2.0";
    if (typeof version !== "string") {
      this.error(
        version === undefined ? "Missing required `smithy` version property" : `Expected \`smithy\` to be a string; found ${nodeTypeName(version)}`,
        undefined,
        loc,
      );
    } else if (!SUPPORTED_VERSIONS.has(version)) {
      this.error(`Unsupported Smithy version number: ${version}`, undefined, loc);
      return version;
    } else {
      versionText = version.startsWith("1") ? "1.0" : "2.0";
    }
    if (root.metadata !== undefined) {
      if (!isNodeObject(root.metadata)) {
        this.error(`Expected \`metadata\` to be an object; found ${nodeTypeName(root.metadata)}`, undefined, loc);
      } else {
        for (const [key, value] of Object.entries(root.metadata)) this.metadata.push({ key, value, location: this.locate(key) });
      }
    }
    if (root.shapes !== undefined) {
      if (!isNodeObject(root.shapes)) {
        this.error(`Expected \`shapes\` to be an object; found ${nodeTypeName(root.shapes)}`, undefined, loc);
      } else {
        for (const [id, def] of Object.entries(root.shapes)) this.readShape(id, def);
      }
    }
    return versionText;
  }

  private ref(value: NodeValue | undefined, shapeId: string, what: string, loc: SourceLocation): RefDraft | undefined {
    if (value === undefined) return undefined;
    if (!isNodeObject(value)) {
      this.error(
        what ? `Expected \`${what}\` to be an object; found ${nodeTypeName(value)}` : `Expected object, but found ${nodeTypeName(value)}.`,
        shapeId,
        loc,
      );
      return undefined;
    }
    const target = value.target;
    if (typeof target !== "string") {
      this.error(`Expected \`target\` of ${what || "a reference"} to be a string; found ${nodeTypeName(target)}`, shapeId, loc);
      return undefined;
    }
    return { text: target, location: loc };
  }

  private refList(value: NodeValue | undefined, shapeId: string, what: string, loc: SourceLocation): RefDraft[] | undefined {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      this.error(`Expected \`${what}\` to be an array; found ${nodeTypeName(value)}`, shapeId, loc);
      return [];
    }
    const refs: RefDraft[] = [];
    for (const item of value) {
      const r = this.ref(item, shapeId, "", loc);
      if (r) refs.push(r);
    }
    return refs;
  }

  private refMap(value: NodeValue | undefined, shapeId: string, what: string, loc: SourceLocation): Record<string, RefDraft> | undefined {
    if (value === undefined) return undefined;
    if (!isNodeObject(value)) {
      this.error(`Expected \`${what}\` to be an object; found ${nodeTypeName(value)}`, shapeId, loc);
      return {};
    }
    const out: Record<string, RefDraft> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = this.ref(v, shapeId, what, loc);
      if (r) out[k] = r;
    }
    return out;
  }

  private traits(value: NodeValue | undefined, shapeId: string, loc: SourceLocation): TraitDraft[] {
    if (value === undefined) return [];
    if (!isNodeObject(value)) {
      this.error(`Expected \`traits\` to be an object; found ${nodeTypeName(value)}`, shapeId, loc);
      return [];
    }
    const traits: TraitDraft[] = [];
    for (const [name, traitValue] of Object.entries(value)) {
      if (!isAbsoluteShapeId(name)) {
        this.error(`Invalid shape ID: ${name}`, shapeId, loc);
        continue;
      }
      traits.push({ name: { text: name, location: loc }, value: traitValue, location: loc });
    }
    return traits;
  }

  private member(name: string, def: NodeValue | undefined, containerId: string, loc: SourceLocation): MemberDraft | undefined {
    const memberId = `${containerId}$${name}`;
    if (!isNodeObject(def)) {
      this.error(`Expected member \`${name}\` to be an object; found ${nodeTypeName(def)}`, memberId, loc);
      return undefined;
    }
    this.warnExtraProperties(def, PROPS.member!, memberId, loc);
    if (typeof def.target !== "string") {
      this.error(`Expected \`target\` of member \`${name}\` to be a string; found ${nodeTypeName(def.target)}`, memberId, loc);
      return undefined;
    }
    return { name, target: { text: def.target, location: loc }, elided: false, traits: this.traits(def.traits, memberId, loc), location: loc };
  }

  private readShape(id: string, def: NodeValue): void {
    const loc = this.locate(id);
    if (!isAbsoluteShapeId(id)) {
      this.error(`Invalid shape ID: ${id}`, undefined, loc);
      return;
    }
    if (!isNodeObject(def)) {
      this.error(`Expected shape \`${id}\` to be an object; found ${nodeTypeName(def)}`, id, loc);
      return;
    }
    const type = def.type;
    if (typeof type !== "string") {
      this.error(`Expected \`type\` of \`${id}\` to be a string; found ${nodeTypeName(type)}`, id, loc);
      return;
    }
    if (type === "apply") {
      this.warnExtraProperties(def, PROPS.apply!, id, loc);
      this.applies.push({ target: { text: id, location: loc }, traits: this.traits(def.traits, id, loc), location: loc });
      return;
    }
    if (!SHAPE_TYPES.has(type)) {
      this.error(`Invalid shape \`type\`: ${type}`, id, loc);
      return;
    }
    if (id.includes("$")) {
      this.error(`Shapes of type \`${type}\` cannot contain a member in their shape ID. Found \`${id}\``, id, loc);
      return;
    }
    this.warnExtraProperties(def, propsFor(type), id, loc);
    const members: MemberDraft[] = [];
    const shapeType = type as Exclude<ShapeType, "member">;
    if (type === "list" || type === "set") {
      if (def.member !== undefined) {
        const m = this.member("member", def.member, id, loc);
        if (m) members.push(m);
      }
    } else if (type === "map") {
      for (const name of ["key", "value"]) {
        if (def[name] === undefined) continue;
        const m = this.member(name, def[name], id, loc);
        if (m) members.push(m);
      }
    } else if (type === "structure" || type === "union" || type === "enum" || type === "intEnum") {
      if (def.members !== undefined) {
        if (!isNodeObject(def.members)) {
          this.error(`Expected \`members\` to be an object; found ${nodeTypeName(def.members)}`, id, loc);
        } else {
          for (const [name, m] of Object.entries(def.members)) {
            if (!isIdentifier(name)) {
              this.error(`Invalid member name: ${name}`, id, loc);
              continue;
            }
            const member = this.member(name, m, id, loc);
            if (member) members.push(member);
          }
        }
      }
    }
    const shape: ShapeDraft = {
      id,
      type: shapeType,
      location: loc,
      traits: this.traits(def.traits, id, loc),
      members,
      mixins: this.refList(def.mixins, id, "mixins", loc) ?? [],
    };
    if (type === "service") {
      if (def.version !== undefined) {
        if (typeof def.version === "string") shape.version = def.version;
        else this.error(`Expected \`version\` to be a string; found ${nodeTypeName(def.version)}`, id, loc);
      }
      if (def.rename !== undefined) {
        if (isNodeObject(def.rename) && Object.values(def.rename).every((v) => typeof v === "string")) {
          shape.rename = def.rename as Record<string, string>;
        } else {
          this.error("Expected `rename` to be an object of strings", id, loc);
        }
      }
    }
    if (type === "service" || type === "resource") {
      this.assign(shape, "operations", this.refList(def.operations, id, "operations", loc));
      this.assign(shape, "resources", this.refList(def.resources, id, "resources", loc));
    }
    if (type === "service" || type === "operation") {
      this.assign(shape, "errors", this.refList(def.errors, id, "errors", loc));
    }
    if (type === "resource") {
      this.assign(shape, "identifiers", this.refMap(def.identifiers, id, "identifiers", loc));
      this.assign(shape, "properties", this.refMap(def.properties, id, "properties", loc));
      for (const op of ["create", "put", "read", "update", "delete", "list"] as const) {
        this.assign(shape, op, this.ref(def[op], id, op, loc));
      }
      this.assign(shape, "collectionOperations", this.refList(def.collectionOperations, id, "collectionOperations", loc));
    }
    if (type === "operation") {
      this.assign(shape, "input", this.ref(def.input, id, "input", loc));
      this.assign(shape, "output", this.ref(def.output, id, "output", loc));
    }
    this.shapes.push(shape);
  }

  private assign<K extends keyof ShapeDraft>(shape: ShapeDraft, key: K, value: ShapeDraft[K] | undefined): void {
    if (value !== undefined) (shape as { [P in K]: ShapeDraft[P] })[key] = value;
  }
}

interface JsonScan {
  /** Nesting went deeper than the limit. */
  readonly tooDeep: boolean;
  /** Start and end offsets of number literals a double cannot hold exactly. */
  readonly bigNumbers: [number, number][];
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * One pass over JSON text, without recursion: how deep it nests, and where
 * the integers are that JSON.parse would round (more than 15 digits, or an
 * exponent). JSON.parse keeps no source text in Node 20, so those are
 * rewritten to marked strings before parsing and turned back into exact
 * numbers after.
 */
function scanJson(text: string, limit: number): JsonScan {
  let depth = 0;
  let inString = false;
  const bigNumbers: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return { tooDeep: true, bigNumbers };
    } else if (c === 93 || c === 125) depth--;
    else if (c === 45 || isDigit(c)) {
      const start = i;
      let digits = 0;
      let exponent = false;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (isDigit(d)) digits++;
        else if (d === 101 || d === 69) exponent = true;
        else if (d !== 45 && d !== 43 && d !== 46) break;
      }
      if (digits > 15 || exponent) {
        const lexeme = text.slice(start, i);
        const value = numberFromText(lexeme);
        if (typeof value === "bigint" || isApproximateNumber(lexeme, value)) bigNumbers.push([start, i]);
      }
      i--;
    }
  }
  return { tooDeep: false, bigNumbers };
}

const BIG_MARK = "\u0000anvil-bigint:";

function markBigNumbers(text: string, spans: readonly [number, number][]): string {
  let out = "";
  let last = 0;
  for (const [start, end] of spans) {
    // Written as a JSON escape: JSON.parse rejects a raw NUL inside a string.
    out += `${text.slice(last, start)}"\\u0000anvil-bigint:${text.slice(start, end)}"`;
    last = end;
  }
  return out + text.slice(last);
}

/**
 * Turns marked strings back into numbers, in place: exact integers, and
 * decimals a double only approximates with their text kept (see `exactNumberText`).
 */
function restoreBigNumbers(value: NodeValue): NodeValue {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restoreAt(value, i, value[i]!);
  } else if (isNodeObject(value)) {
    for (const k of Object.keys(value)) setNodeKey(value, k, restoreAt(value, k, value[k]!));
  }
  return value;
}

function restoreAt(container: object, key: string | number, value: NodeValue): NodeValue {
  if (typeof value !== "string") return restoreBigNumbers(value);
  if (!value.startsWith(BIG_MARK)) return value;
  const text = value.slice(BIG_MARK.length);
  const number = numberFromText(text);
  if (isApproximateNumber(text, number)) noteExactNumber(container, key, text);
  return number;
}

/** Reads a JSON AST document. Never throws: problems become events. */
export function parseJsonAst(text: string, file: string): FileDraft {
  const start: SourceLocation = { file, line: 1, column: 1 };
  const empty = (message: string): FileDraft => ({
    file,
    version: "2.0",
    context: null,
    metadata: [],
    shapes: [],
    applies: [],
    events: [{ severity: "ERROR", id: "Model", message, location: start }],
  });
  const scan = scanJson(text, MAX_JSON_DEPTH);
  if (scan.tooDeep) return empty(`Invalid JSON AST: nesting is deeper than ${MAX_JSON_DEPTH} levels`);
  let root: NodeValue;
  try {
    root = JSON.parse(scan.bigNumbers.length ? markBigNumbers(text, scan.bigNumbers) : text) as NodeValue;
  } catch (e) {
    return empty(`Invalid JSON: ${(e as Error).message}`);
  }
  if (scan.bigNumbers.length) root = restoreBigNumbers(root);
  const reader = new JsonAstReader(text, file);
  const version = reader.read(root);
  return { file, version, context: null, metadata: reader.metadata, shapes: reader.shapes, applies: reader.applies, events: reader.events };
}
