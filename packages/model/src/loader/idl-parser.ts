/**
 * The Smithy IDL parser: turns one `.smithy` file into a {@link FileDraft}.
 *
 * It follows the Smithy 2.0 IDL grammar (and loads 1.0 files the way upstream
 * Smithy does), and mimics upstream's error messages and positions so that
 * conformance expectations written against the reference implementation hold.
 * Parsing stops at the first syntax error; everything parsed before it is
 * returned along with the event.
 *
 * @internal
 */
import { isApproximateNumber, noteExactNumber, setNodeKey, stringifyNode } from "../node-value.js";
import { SIMPLE_TYPES } from "../shape.js";
import type { SourceLocation } from "../source-location.js";
import type { ValidationEvent } from "../validation-event.js";
import {
  SyntacticShapeId,
  type ApplyDraft,
  type FileDraft,
  type MemberDraft,
  type MetadataDraft,
  type NodeDraft,
  type RefDraft,
  type ShapeDraft,
  type TraitDraft,
} from "./draft.js";
import { IdlTokenizer, isWhitespaceToken, Tok, tokenDebug, type TokenType } from "./idl-tokenizer.js";

/** Upstream Smithy's limit on nested arrays/objects/structured traits; keeps recursion bounded. */
export const MAX_NESTING_LEVEL = 64;

/** Event id for documentation comments that document nothing (upstream's id). */
const BAD_DOC_COMMENT = "Model.BadDocumentationComment";

const AGGREGATE_TYPES = new Set(["list", "set", "map", "structure", "union"]);

const SERVICE_PROPERTIES = ["type", "version", "operations", "resources", "rename", "errors"];
const RESOURCE_PROPERTIES = [
  "type",
  "create",
  "read",
  "update",
  "delete",
  "list",
  "identifiers",
  "resources",
  "operations",
  "put",
  "properties",
  "collectionOperations",
];

/** Parsing stops by throwing this; {@link parseIdl} turns it into the ERROR event. */
class StopParsing extends Error {
  constructor(readonly event: ValidationEvent) {
    super(event.message);
  }
}

/**
 * A quoted string read where its location matters (service and resource
 * bodies, whose string values are shape references). Never escapes the parser.
 */
class LocatedString {
  constructor(
    readonly text: string,
    readonly location: SourceLocation,
  ) {}
}

interface DocLine {
  readonly text: string;
  readonly location: SourceLocation;
}

interface Docs {
  readonly text: string;
  readonly location: SourceLocation;
}

/**
 * Parses Smithy IDL text. Never throws: syntax errors (the first one stops
 * parsing) and warnings are returned in `events`.
 *
 * @param text The contents of the file.
 * @param file The file name used in source locations.
 * @returns The file's shapes, applies, metadata and resolution context as written.
 */
export function parseIdl(text: string, file: string): FileDraft {
  const parser = new IdlParser(text, file);
  try {
    parser.parse();
  } catch (e) {
    parser.incomplete = true;
    if (e instanceof StopParsing) {
      parser.events.push(e.event);
    } else {
      // Defensive: a bug or a host limit must still come back as an event.
      const message = e instanceof Error ? e.message : String(e);
      parser.events.push({
        severity: "ERROR",
        id: "Model",
        message: `Error parsing IDL file: ${message}`,
        location: { file, line: 0, column: 0 },
      });
    }
  }
  return parser.result();
}

class IdlParser {
  readonly events: ValidationEvent[] = [];
  private readonly tok: IdlTokenizer;
  private readonly file: string;
  private readonly shapes: ShapeDraft[] = [];
  private readonly applies: ApplyDraft[] = [];
  private readonly metadata: MetadataDraft[] = [];
  private readonly uses = new Map<string, string>();
  private namespace = "";
  private version = "1.0";
  private inputSuffix = "Input";
  private outputSuffix = "Output";
  private nesting = 0;
  /** End offset of the last token consumed, to slice multi-token shape ids. */
  private lastEnd = 0;
  /** Documentation comment lines skipped over and not yet attached or reported. */
  private pendingDocs: DocLine[] = [];
  /** When set, quoted strings parse to {@link LocatedString} (service/resource bodies). */
  private locateStrings = false;
  /** The source text of the number just parsed, when a double holds it only approximately. */
  private approximate: string | undefined;
  /** Set when parsing stopped at an error before the end of the file. */
  incomplete = false;

  constructor(text: string, file: string) {
    this.file = file;
    this.tok = new IdlTokenizer(text);
  }

  result(): FileDraft {
    return {
      file: this.file,
      version: this.version,
      context: { namespace: this.namespace, uses: this.uses },
      metadata: this.metadata,
      shapes: this.shapes,
      applies: this.applies,
      events: this.events,
      ...(this.incomplete ? { incomplete: true } : {}),
    };
  }

  // ---------------------------------------------------------------- tokens

  private cur(): TokenType {
    return this.tok.type;
  }

  private loc(): SourceLocation {
    return { file: this.file, line: this.tok.line, column: this.tok.column };
  }

  /** Advances, buffering a documentation comment when one is stepped over. */
  private next(): void {
    const t = this.tok;
    if (t.type === Tok.DOC_COMMENT) this.bufferDocComment();
    this.lastEnd = t.end;
    t.next();
  }

  private bufferDocComment(): void {
    const t = this.tok;
    const text = t.text;
    let s = t.start + 3;
    if (text.charCodeAt(s) === 0x20) s++;
    let e = t.end;
    if (e > s && text.charCodeAt(e - 1) === 0x0a) e--;
    if (e > s && text.charCodeAt(e - 1) === 0x0d) e--;
    this.pendingDocs.push({ text: text.slice(Math.min(s, e), e), location: this.loc() });
  }

  private skipSpaces(): void {
    while (this.tok.type === Tok.SPACE) this.next();
  }

  private skipWs(): void {
    while (isWhitespaceToken(this.tok.type)) this.next();
  }

  private skipWsAndDocs(): void {
    while (isWhitespaceToken(this.tok.type) || this.tok.type === Tok.DOC_COMMENT) this.next();
  }

  private expect(type: TokenType): void {
    if (this.tok.type !== type) throw this.syntax(this.expectMessage([type]));
  }

  private expectOneOf(...types: TokenType[]): TokenType {
    const c = this.tok.type;
    for (const t of types) if (t === c) return c;
    throw this.syntax(this.expectMessage(types));
  }

  private expectMessage(types: TokenType[]): string {
    const t = this.tok;
    if (t.type === Tok.ERROR) return t.error;
    if (types.length === 1) return `Expected ${tokenDebug(types[0]!)} but found ${t.debug()}`;
    return `Expected one of ${types.map((x) => tokenDebug(x)).join(", ")}; but found ${t.debug()}`;
  }

  private expectAndSkipSpaces(): void {
    this.expect(Tok.SPACE);
    this.skipSpaces();
  }

  private expectAndSkipWhitespace(): void {
    if (!isWhitespaceToken(this.tok.type)) {
      throw this.syntax(`Expected one or more whitespace characters, but found ${this.tok.debug()}`);
    }
    this.skipWsAndDocs();
  }

  /**
   * The `br` production: optional spaces, then a newline, a comment or EOF.
   * Documentation comments still pending here document nothing, so they are
   * reported first.
   */
  private expectAndSkipBr(): void {
    this.skipSpaces();
    this.reportPendingDocs();
    switch (this.tok.type) {
      case Tok.DOC_COMMENT:
        // A documentation comment at the end of a statement's line documents
        // nothing and is dropped (upstream ignores it too).
        this.lastEnd = this.tok.end;
        this.tok.next();
        this.skipWs();
        return;
      case Tok.NEWLINE:
      case Tok.COMMENT:
        this.next();
        this.skipWs();
        return;
      case Tok.EOF:
        return;
      default:
        throw this.syntax(`Expected a line break, but found ${this.tok.debug()}`);
    }
  }

  // ---------------------------------------------------------------- events

  private syntax(message: string, shapeId?: string, location: SourceLocation = this.loc()): StopParsing {
    return this.fail(`Syntax error at line ${location.line}, column ${location.column}: ${message}`, shapeId, location);
  }

  /** An error that stops parsing, with the message exactly as given. */
  private fail(message: string, shapeId?: string, location: SourceLocation = this.loc()): StopParsing {
    const event: ValidationEvent = shapeId
      ? { severity: "ERROR", id: "Model", message, shapeId, location }
      : { severity: "ERROR", id: "Model", message, location };
    return new StopParsing(event);
  }

  private warn(message: string, location: SourceLocation, id = "Model", shapeId?: string): void {
    this.events.push(shapeId ? { severity: "WARNING", id, message, shapeId, location } : { severity: "WARNING", id, message, location });
  }

  private badDocComment(docs: Docs): void {
    this.warn(
      "Found documentation comments ('///') attached to nothing. Documentation comments must appear on their " +
        `own lines, directly before shapes and members, and before any traits. The invalid comments were: ${docs.text}`,
      docs.location,
      BAD_DOC_COMMENT,
    );
  }

  private takePendingDocs(): Docs | undefined {
    const lines = this.pendingDocs;
    if (lines.length === 0) return undefined;
    this.pendingDocs = [];
    let text = lines[0]!.text;
    for (let i = 1; i < lines.length; i++) text += "\n" + lines[i]!.text;
    return { text, location: lines[0]!.location };
  }

  private reportPendingDocs(): void {
    const docs = this.takePendingDocs();
    if (docs) this.badDocComment(docs);
  }

  private increaseNesting(): void {
    if (++this.nesting > MAX_NESTING_LEVEL) {
      throw this.syntax(`Parser exceeded maximum allowed depth of ${MAX_NESTING_LEVEL}`);
    }
  }

  // ---------------------------------------------------------------- file structure

  parse(): void {
    this.skipWsAndDocs();
    this.parseControlSection();
    this.skipWsAndDocs();
    this.parseMetadataSection();
    this.parseShapeSection();
    this.reportPendingDocs();
  }

  private parseControlSection(): void {
    const defined = new Set<string>();
    while (this.cur() === Tok.DOLLAR) {
      this.next();
      this.expectOneOf(Tok.IDENTIFIER, Tok.STRING);
      const key = this.cur() === Tok.STRING ? this.tok.stringValue : this.tok.lexeme();
      this.next();
      this.skipSpaces();
      this.expect(Tok.COLON);
      this.next();
      this.skipSpaces();
      if (defined.has(key)) throw this.syntax(`Duplicate control statement \`${key}\``);
      defined.add(key);
      const valueLocation = this.loc();
      const value = this.parseNode();
      switch (key) {
        case "version":
          this.onVersion(value, valueLocation);
          break;
        case "operationInputSuffix":
          this.inputSuffix = this.controlString(key, value, valueLocation);
          break;
        case "operationOutputSuffix":
          this.outputSuffix = this.controlString(key, value, valueLocation);
          break;
        default:
          // Upstream's message lacks the closing backtick; kept for fidelity.
          this.warn(`Unknown control statement \`${key}\` with value \`${printJson(value)}`, valueLocation);
      }
      this.expectAndSkipBr();
    }
  }

  private onVersion(value: NodeDraft, location: SourceLocation): void {
    if (typeof value !== "string") {
      throw this.fail(`The $version control statement must have a string value, but found ${printJson(value)}`, undefined, location);
    }
    if (value === "1" || value === "1.0") this.version = "1.0";
    else if (value === "2" || value === "2.0") this.version = "2.0";
    else throw this.syntax(`Unsupported Smithy version number: ${value}`);
  }

  private controlString(key: string, value: NodeDraft, location: SourceLocation): string {
    if (typeof value !== "string") {
      throw this.fail(`Expected a string value for the \`${key}\` control statement, but found ${printJson(value)}`, undefined, location);
    }
    return value;
  }

  private parseMetadataSection(): void {
    while (this.tok.isLexeme("metadata")) {
      const location = this.loc();
      this.next();
      this.expectAndSkipSpaces();
      this.expectOneOf(Tok.IDENTIFIER, Tok.STRING);
      const key = this.cur() === Tok.STRING ? this.tok.stringValue : this.tok.lexeme();
      this.next();
      this.skipSpaces();
      this.expect(Tok.EQUAL);
      this.next();
      this.skipSpaces();
      const value = this.parseNode();
      this.metadata.push({ key, value, location });
      this.expectAndSkipBr();
      this.skipWsAndDocs();
    }
  }

  private parseShapeSection(): void {
    if (this.tok.isLexeme("namespace")) {
      this.next();
      this.expectAndSkipSpaces();
      this.namespace = this.parseNamespace();
      this.expectAndSkipBr();
      this.skipWsAndDocs();
      this.parseUseSection();
      this.parseShapeStatements();
    } else if (this.cur() !== Tok.EOF) {
      throw this.syntax(`Expected a namespace definition but found ${this.tok.debug()}`);
    }
  }

  private parseUseSection(): void {
    while (this.cur() === Tok.IDENTIFIER && this.tok.isLexeme("use")) {
      this.next();
      this.expectAndSkipSpaces();
      const idLocation = this.loc();
      const id = this.parseAbsoluteShapeId();
      if (id.includes("$")) throw this.fail("Use statements cannot use members", undefined, idLocation);
      const name = id.slice(id.indexOf("#") + 1);
      const previous = this.uses.get(name);
      if (previous !== undefined) {
        throw this.fail(`Cannot use name \`${id}\` because it conflicts with \`${previous}\``, undefined, idLocation);
      }
      this.uses.set(name, id);
      this.expectAndSkipBr();
      this.skipWsAndDocs();
    }
  }

  private parseShapeStatements(): void {
    while (this.cur() !== Tok.EOF) {
      const { docs, traits } = this.parseDocsAndTraits();
      if (this.cur() === Tok.EOF) {
        if (traits.length === 0) {
          if (docs) this.badDocComment(docs);
          return;
        }
      }
      this.parseShapeOrApply(docs, traits);
    }
  }

  /**
   * Documentation comments and traits before a shape or member. Documentation
   * comments written after the traits stay pending (they are reported as
   * attached to nothing).
   */
  private parseDocsAndTraits(): { docs: Docs | undefined; traits: TraitDraft[] } {
    this.skipWsAndDocs();
    const docs = this.takePendingDocs();
    const traits: TraitDraft[] = [];
    while (this.cur() === Tok.AT) {
      traits.push(this.parseTrait());
      this.skipWsAndDocs();
    }
    return { docs, traits };
  }

  /** The traits of a definition: the documentation comment (if any) first, then the written traits (mutated). */
  private withDocs(docs: Docs | undefined, traits: TraitDraft[]): TraitDraft[] {
    if (docs) {
      traits.unshift({
        name: { text: "smithy.api#documentation", location: docs.location },
        value: docs.text,
        location: docs.location,
      });
    }
    return traits;
  }

  private parseShapeOrApply(docs: Docs | undefined, traits: TraitDraft[]): void {
    const location = this.loc();
    this.expect(Tok.IDENTIFIER);
    const keyword = this.tok.lexeme();
    if (keyword === "apply") {
      this.parseApply(traits, location);
      return;
    }
    const isSimple = SIMPLE_TYPES.has(keyword);
    const isAggregate = !isSimple && AGGREGATE_TYPES.has(keyword);
    if (
      !isSimple &&
      !isAggregate &&
      keyword !== "enum" &&
      keyword !== "intEnum" &&
      keyword !== "service" &&
      keyword !== "resource" &&
      keyword !== "operation"
    ) {
      throw this.syntax(`Unknown shape type: ${keyword}`);
    }
    const type = keyword as ShapeDraft["type"];
    this.next();
    this.expectAndSkipSpaces();
    const name = this.parseShapeName();
    const id = `${this.namespace}#${name}`;
    const shape = newShape(id, type, location, this.withDocs(docs, traits));
    this.shapes.push(shape);
    if (isSimple) {
      this.parseMixins(shape);
    } else if (isAggregate) {
      this.parseAggregateBody(shape);
    } else if (type === "enum" || type === "intEnum") {
      this.parseEnumBody(shape);
    } else if (type === "service") {
      this.parseServiceBody(shape);
    } else if (type === "resource") {
      this.parseResourceBody(shape);
    } else {
      this.parseOperationBody(shape);
    }
    this.expectAndSkipBr();
  }

  private parseShapeName(): string {
    const location = this.loc();
    this.expect(Tok.IDENTIFIER);
    const name = this.tok.lexeme();
    const imported = this.uses.get(name);
    if (imported !== undefined) {
      throw this.fail(`Shape name \`${name}\` conflicts with imported shape \`${imported}\``, undefined, location);
    }
    this.next();
    return name;
  }

  private parseApply(traits: TraitDraft[], location: SourceLocation): void {
    // Documentation comments before `apply` are plain comments (as upstream).
    if (traits.length > 0) throw this.syntax("Traits applied to apply statement");
    this.next();
    this.expectAndSkipWhitespace();
    const target = this.parseShapeIdRef();
    this.expectAndSkipWhitespace();
    const applied: TraitDraft[] = [];
    if (this.expectOneOf(Tok.AT, Tok.LBRACE) === Tok.AT) {
      applied.push(this.parseTrait());
    } else {
      this.next();
      this.skipWsAndDocs();
      while (this.cur() === Tok.AT) {
        applied.push(this.parseTrait());
        this.skipWsAndDocs();
      }
      this.skipWsAndDocs();
      this.expect(Tok.RBRACE);
      this.next();
    }
    this.applies.push({ target, traits: applied, location });
    this.expectAndSkipBr();
  }

  // ---------------------------------------------------------------- shape bodies

  private parseMixins(shape: ShapeDraft): void {
    this.skipSpaces();
    if (!this.tok.isLexeme("with")) return;
    this.expect(Tok.IDENTIFIER);
    if (this.version === "1.0") {
      throw this.syntax("Mixins can only be used with Smithy version 2 or later. " + `Attempted to use mixins with version \`${this.version}\`.`, shape.id);
    }
    this.next();
    this.skipWsAndDocs();
    this.expect(Tok.LBRACKET);
    this.next();
    this.skipWsAndDocs();
    do {
      shape.mixins.push(this.parseShapeIdRef());
      this.skipWsAndDocs();
    } while (this.cur() !== Tok.RBRACKET);
    this.next();
  }

  private parseForResource(shape: ShapeDraft): void {
    this.skipSpaces();
    if (!this.tok.isLexeme("for")) return;
    if (this.version === "1.0") {
      throw this.syntax(
        "Structures can only be bound to resources with Smithy version 2 or later. " +
          `Attempted to bind a structure to a resource with version \`${this.version}\`.`,
        shape.id,
      );
    }
    this.next();
    this.expectAndSkipSpaces();
    (shape as { forResource?: RefDraft }).forResource = this.parseShapeIdRef();
  }

  private parseAggregateBody(shape: ShapeDraft): void {
    this.parseForResource(shape);
    this.parseMixins(shape);
    this.skipWsAndDocs();
    // Documentation comments between the shape name and `{` document nothing.
    this.reportPendingDocs();
    this.expect(Tok.LBRACE);
    this.next();
    this.skipWs();
    const defined = new Set<string>();
    while (this.cur() !== Tok.EOF && this.cur() !== Tok.RBRACE) {
      this.parseMember(shape, defined);
      this.skipWs();
    }
    this.expect(Tok.RBRACE);
    this.next();
  }

  private parseMember(shape: ShapeDraft, defined: Set<string>): void {
    const { docs, traits: written } = this.parseDocsAndTraits();
    if (this.cur() === Tok.RBRACE && docs && written.length === 0) {
      this.badDocComment(docs);
      return;
    }
    const traits = this.withDocs(docs, written);
    // Documentation comments after the member's traits document nothing.
    this.reportPendingDocs();
    const location = this.loc();
    const elided = this.cur() === Tok.DOLLAR;
    if (elided) this.next();
    this.expect(Tok.IDENTIFIER);
    const name = this.tok.lexeme();
    if (defined.has(name)) {
      throw this.syntax(`Duplicate member of \`${shape.id}\`: '${name}'`, shape.id);
    }
    defined.add(name);
    if (elided && this.version === "1.0") {
      throw this.syntax("Members can only elide targets in IDL version 2 or later", `${shape.id}$${name}`);
    }
    this.next();
    let target: RefDraft | undefined;
    if (!elided) {
      this.skipSpaces();
      this.expect(Tok.COLON);
      this.next();
      this.skipSpaces();
      target = this.parseShapeIdRef();
    }
    this.skipSpaces();
    if (this.cur() === Tok.EQUAL) {
      if (this.version === "1.0") throw this.syntax("@default assignment is only supported in IDL version 2 or later");
      this.next();
      this.skipSpaces();
      const valueLocation = this.loc();
      const value = this.parseNode();
      traits.push({ name: { text: "smithy.api#default", location: valueLocation }, value, location: valueLocation });
      this.skipSpaces();
      if (this.cur() === Tok.COMMA) this.next();
      this.expectAndSkipBr();
    }
    shape.members.push({ name, target, elided, traits, location });
  }

  private parseEnumBody(shape: ShapeDraft): void {
    this.parseMixins(shape);
    this.skipWsAndDocs();
    this.expect(Tok.LBRACE);
    this.next();
    this.skipWs();
    const defined = new Set<string>();
    while (this.cur() !== Tok.EOF && this.cur() !== Tok.RBRACE) {
      const { docs, traits: written } = this.parseDocsAndTraits();
      if (this.cur() === Tok.RBRACE && docs && written.length === 0) {
        this.badDocComment(docs);
        break;
      }
      const traits = this.withDocs(docs, written);
      this.reportPendingDocs();
      const location = this.loc();
      this.expect(Tok.IDENTIFIER);
      const name = this.tok.lexeme();
      if (defined.has(name)) throw this.syntax(`Found conflicting member name, \`${name}\``, shape.id);
      defined.add(name);
      const member: MemberDraft = {
        name,
        target: { text: "smithy.api#Unit", location },
        elided: false,
        traits,
        location,
      };
      shape.members.push(member);
      this.next();
      this.skipSpaces();
      if (this.cur() === Tok.EQUAL) {
        this.next();
        this.skipSpaces();
        const valueLocation = this.loc();
        const value = this.parseNode();
        traits.push({ name: { text: "smithy.api#enumValue", location: valueLocation }, value, location: valueLocation });
        this.skipSpaces();
        if (this.cur() === Tok.COMMA) this.next();
        this.expectAndSkipBr();
      } else {
        this.skipWs();
      }
    }
    this.expect(Tok.RBRACE);
    this.next();
  }

  private parseServiceBody(shape: ShapeDraft): void {
    this.parseMixins(shape);
    this.skipWsAndDocs();
    this.expect(Tok.LBRACE);
    const body = this.parseLocatedObject();
    this.warnAdditionalProperties(body, shape.id, SERVICE_PROPERTIES);
    const version = body.get("version");
    if (version !== undefined) shape.version = this.expectText(version, "version");
    this.optionalRefList(body, "operations", (r) => (shape.operations ??= []).push(r));
    this.optionalRefList(body, "resources", (r) => (shape.resources ??= []).push(r));
    this.optionalRefList(body, "errors", (r) => (shape.errors ??= []).push(r));
    const rename = body.get("rename");
    if (rename !== undefined) {
      const obj = this.expectObject(rename, "rename");
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(obj)) out[k] = this.expectText(v, k);
      shape.rename = out;
    }
  }

  private parseResourceBody(shape: ShapeDraft): void {
    this.parseMixins(shape);
    this.skipWsAndDocs();
    this.expect(Tok.LBRACE);
    const body = this.parseLocatedObject();
    this.warnAdditionalProperties(body, shape.id, RESOURCE_PROPERTIES);
    for (const key of ["put", "create", "read", "update", "delete", "list"] as const) {
      const v = body.get(key);
      if (v !== undefined) shape[key] = this.expectRef(v, key);
    }
    this.optionalRefList(body, "operations", (r) => (shape.operations ??= []).push(r));
    this.optionalRefList(body, "resources", (r) => (shape.resources ??= []).push(r));
    this.optionalRefList(body, "collectionOperations", (r) => (shape.collectionOperations ??= []).push(r));
    const ids = body.get("identifiers");
    if (ids !== undefined) shape.identifiers = this.refRecord(this.expectObject(ids, "identifiers"));
    const props = body.get("properties");
    if (props !== undefined) {
      if (this.version === "1.0") {
        throw this.syntax(
          "Resource properties can only be used with Smithy version 2 or later. " + `Attempted to use resource properties with version \`${this.version}\`.`,
          shape.id,
        );
      }
      shape.properties = this.refRecord(this.expectObject(props, "properties"));
    }
  }

  private parseOperationBody(shape: ShapeDraft): void {
    this.parseMixins(shape);
    this.skipWsAndDocs();
    this.expect(Tok.LBRACE);
    this.next();
    this.skipWsAndDocs();
    const defined = new Set<string>();
    while (this.cur() !== Tok.EOF && this.cur() !== Tok.RBRACE) {
      this.expect(Tok.IDENTIFIER);
      const key = this.tok.lexeme();
      if (defined.has(key)) throw this.syntax(`Duplicate operation ${key} property for \`${shape.id}\``, shape.id);
      defined.add(key);
      this.next();
      this.skipWsAndDocs();
      if (key === "input" || key === "output") {
        const how = this.expectOneOf(Tok.COLON, Tok.WALRUS);
        this.next();
        const ref = this.parseInlineableIo(shape, how, key);
        if (key === "input") shape.input = ref;
        else shape.output = ref;
      } else if (key === "errors") {
        this.expect(Tok.COLON);
        this.next();
        this.parseIdList((r) => (shape.errors ??= []).push(r));
      } else {
        throw this.syntax(`Unknown property ${key} for ${shape.id}`, shape.id);
      }
      this.expectAndSkipWhitespace();
      this.skipWsAndDocs();
    }
    this.expect(Tok.RBRACE);
    this.next();
  }

  private parseInlineableIo(operation: ShapeDraft, how: TokenType, key: "input" | "output"): RefDraft {
    if (how !== Tok.WALRUS) {
      this.skipWsAndDocs();
      return this.parseShapeIdRef();
    }
    if (this.version === "1.0") {
      throw this.syntax(
        "Inlined operation inputs and outputs can only be used with Smithy version 2 or later. " +
          `Attempted to use inlined IO with version \`${this.version}\`.`,
        operation.id,
      );
    }
    // Documentation comments before `:=` are discarded, as upstream does; the
    // ones after it document the inline structure.
    this.pendingDocs = [];
    this.skipWs();
    const { docs, traits: written } = this.parseDocsAndTraits();
    const traits = this.withDocs(docs, written);
    const location = this.loc();
    traits.push({
      name: { text: key === "input" ? "smithy.api#input" : "smithy.api#output", location },
      value: {},
      location,
    });
    const name = operation.id.slice(operation.id.indexOf("#") + 1) + (key === "input" ? this.inputSuffix : this.outputSuffix);
    const id = `${this.namespace}#${name}`;
    const shape = newShape(id, "structure", location, traits);
    this.shapes.push(shape);
    this.parseAggregateBody(shape);
    return { text: id, location };
  }

  private parseIdList(add: (ref: RefDraft) => void): void {
    this.increaseNesting();
    this.skipWsAndDocs();
    this.expect(Tok.LBRACKET);
    this.next();
    this.skipWsAndDocs();
    while (this.cur() !== Tok.EOF && this.cur() !== Tok.RBRACKET) {
      this.expect(Tok.IDENTIFIER);
      add(this.parseShapeIdRef());
      this.skipWsAndDocs();
    }
    this.expect(Tok.RBRACKET);
    this.next();
    this.nesting--;
  }

  // ---------------------------------------------------------------- service/resource values

  /** Parses a `{...}` body keeping the location of string values (they are references). */
  private parseLocatedObject(): Map<string, NodeDraft> {
    const saved = this.locateStrings;
    this.locateStrings = true;
    try {
      const node = this.parseNode() as { [key: string]: NodeDraft };
      return new Map(Object.entries(node));
    } finally {
      this.locateStrings = saved;
    }
  }

  private warnAdditionalProperties(body: Map<string, NodeDraft>, shapeId: string, allowed: string[]): void {
    const extra = [...body.keys()].filter((k) => !allowed.includes(k));
    if (extra.length === 0) return;
    const ticked = (xs: string[]): string =>
      [...xs]
        .sort()
        .map((x) => `\`${x}\``)
        .join(", ");
    this.warn(
      `Expected an object with possible properties of ${ticked(allowed)}, but found additional properties: ${ticked(extra)}`,
      this.loc(),
      "Model",
      shapeId,
    );
  }

  private optionalRefList(body: Map<string, NodeDraft>, key: string, add: (ref: RefDraft) => void): void {
    const value = body.get(key);
    if (value === undefined) return;
    if (!Array.isArray(value)) throw this.fail(`Expected \`${key}\` to be an array; found ${nodeType(value)}`);
    // Like upstream, elements that are not strings are ignored here.
    for (const element of value) {
      const ref = asRef(element);
      if (ref) add(ref);
    }
  }

  private refRecord(obj: { [key: string]: NodeDraft }): Record<string, RefDraft> {
    const out: Record<string, RefDraft> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = this.expectRef(v, k);
    return out;
  }

  private expectRef(value: NodeDraft, key: string): RefDraft {
    const ref = asRef(value);
    if (!ref) throw this.fail(`Expected \`${key}\` to be a string; found ${nodeType(value)}`);
    return ref;
  }

  private expectText(value: NodeDraft, key: string): string {
    if (value instanceof LocatedString || value instanceof SyntacticShapeId) return value.text;
    throw this.fail(`Expected \`${key}\` to be a string; found ${nodeType(value)}`);
  }

  private expectObject(value: NodeDraft, key: string): { [key: string]: NodeDraft } {
    if (isPlainObject(value)) return value;
    throw this.fail(`Expected \`${key}\` to be an object; found ${nodeType(value)}`);
  }

  // ---------------------------------------------------------------- shape ids

  /** `ns.a.b`: identifiers separated by dots. */
  private parseNamespace(): string {
    const start = this.tok.start;
    this.skipNamespace();
    return this.tok.text.slice(start, this.lastEnd);
  }

  private skipNamespace(): void {
    this.expect(Tok.IDENTIFIER);
    this.next();
    while (this.cur() === Tok.DOT) {
      this.next();
      this.expect(Tok.IDENTIFIER);
      this.next();
    }
  }

  /** After the namespace or `#`: `Name` or `Name$member`. */
  private skipRelativeRootShapeId(): void {
    this.expect(Tok.IDENTIFIER);
    this.next();
    if (this.cur() === Tok.DOLLAR) {
      this.next();
      this.expect(Tok.IDENTIFIER);
      this.next();
    }
  }

  private parseAbsoluteShapeId(): string {
    const start = this.tok.start;
    this.skipNamespace();
    this.expect(Tok.POUND);
    this.next();
    this.skipRelativeRootShapeId();
    return this.tok.text.slice(start, this.lastEnd);
  }

  /** A relative or absolute shape id, as written. */
  private parseShapeId(): string {
    const start = this.tok.start;
    this.skipNamespace();
    if (this.cur() === Tok.DOLLAR || this.cur() === Tok.POUND) {
      this.next();
      this.skipRelativeRootShapeId();
    }
    return this.tok.text.slice(start, this.lastEnd);
  }

  private parseShapeIdRef(): RefDraft {
    const location = this.loc();
    return { text: this.parseShapeId(), location };
  }

  // ---------------------------------------------------------------- traits

  private parseTrait(): TraitDraft {
    const location = this.loc();
    this.expect(Tok.AT);
    this.next();
    const name: RefDraft = { text: this.parseShapeId(), location };
    if (this.cur() !== Tok.LPAREN) return { name, value: undefined, location };
    this.next();
    this.skipWsAndDocs();
    // `@foo()` is an annotation too.
    if (this.cur() === Tok.RPAREN) {
      this.next();
      return { name, value: undefined, location };
    }
    const value = this.parseTraitBody();
    this.skipWsAndDocs();
    this.expect(Tok.RPAREN);
    this.next();
    return { name, value, location };
  }

  private parseTraitBody(): NodeDraft {
    const t = this.expectOneOf(Tok.LBRACE, Tok.LBRACKET, Tok.TEXT_BLOCK, Tok.STRING, Tok.NUMBER, Tok.IDENTIFIER);
    switch (t) {
      case Tok.LBRACE:
      case Tok.LBRACKET: {
        const value = this.parseNode();
        this.skipWsAndDocs();
        return value;
      }
      case Tok.TEXT_BLOCK:
      case Tok.NUMBER: {
        const value = t === Tok.NUMBER ? this.tok.numberValue : this.tok.stringValue;
        this.next();
        this.skipWsAndDocs();
        return value;
      }
      case Tok.STRING: {
        const value = this.tok.stringValue;
        this.next();
        this.skipWsAndDocs();
        if (this.cur() !== Tok.COLON) return value;
        this.next();
        this.skipWsAndDocs();
        return this.parseStructuredTrait(value);
      }
      default: {
        const location = this.loc();
        const id = this.parseShapeId();
        this.skipWsAndDocs();
        if (this.cur() === Tok.RPAREN || /[.$#]/.test(id)) return identifierNode(id, location);
        this.expect(Tok.COLON);
        this.next();
        this.skipWsAndDocs();
        return this.parseStructuredTrait(id);
      }
    }
  }

  /** `@foo(a: 1, b: 2)`: the first key is already consumed. */
  private parseStructuredTrait(firstKey: string): NodeDraft {
    this.increaseNesting();
    const entries: { [key: string]: NodeDraft } = {};
    entries[firstKey] = this.parseNode();
    this.keepExactNumber(entries, firstKey);
    this.skipWsAndDocs();
    while (this.cur() !== Tok.RPAREN) {
      this.expectOneOf(Tok.IDENTIFIER, Tok.STRING);
      const key = this.cur() === Tok.STRING ? this.tok.stringValue : this.tok.lexeme();
      const keyLocation = this.loc();
      this.next();
      this.skipWsAndDocs();
      this.expect(Tok.COLON);
      this.next();
      this.skipWsAndDocs();
      const value = this.parseNode();
      if (Object.hasOwn(entries, key)) throw this.fail(`Duplicate member of trait: '${key}'`, undefined, keyLocation);
      setNodeKey(entries, key, value);
      this.keepExactNumber(entries, key);
      this.skipWsAndDocs();
    }
    this.nesting--;
    return entries;
  }

  // ---------------------------------------------------------------- node values

  /** A node value; the tokenizer is left on the token after it. */
  private parseNode(): NodeDraft {
    const t = this.expectOneOf(Tok.STRING, Tok.TEXT_BLOCK, Tok.NUMBER, Tok.IDENTIFIER, Tok.LBRACE, Tok.LBRACKET);
    switch (t) {
      case Tok.STRING:
      case Tok.TEXT_BLOCK: {
        const value = this.tok.stringValue;
        const result = this.locateStrings ? new LocatedString(value, this.loc()) : value;
        this.next();
        return result as NodeDraft;
      }
      case Tok.NUMBER: {
        const value = this.tok.numberValue;
        const text = this.tok.lexeme();
        this.approximate = isApproximateNumber(text, value) ? text : undefined;
        this.next();
        return value;
      }
      case Tok.IDENTIFIER: {
        const location = this.loc();
        return identifierNode(this.parseShapeId(), location);
      }
      case Tok.LBRACE:
        return this.parseObjectNode();
      default:
        return this.parseArrayNode();
    }
  }

  /** After a value went into `container[key]`: remembers its source text if it was an approximate number. */
  private keepExactNumber(container: object, key: string | number): void {
    if (this.approximate === undefined) return;
    noteExactNumber(container, key, this.approximate);
    this.approximate = undefined;
  }

  private parseArrayNode(): NodeDraft[] {
    this.increaseNesting();
    this.next();
    this.skipWsAndDocs();
    const items: NodeDraft[] = [];
    while (this.cur() !== Tok.RBRACKET) {
      items.push(this.parseNode());
      this.keepExactNumber(items, items.length - 1);
      this.skipWsAndDocs();
    }
    this.next();
    this.nesting--;
    return items;
  }

  private parseObjectNode(): { [key: string]: NodeDraft } {
    this.next();
    this.skipWsAndDocs();
    this.increaseNesting();
    const entries: { [key: string]: NodeDraft } = {};
    while (this.cur() !== Tok.EOF) {
      if (this.expectOneOf(Tok.RBRACE, Tok.STRING, Tok.IDENTIFIER) === Tok.RBRACE) break;
      const key = this.cur() === Tok.STRING ? this.tok.stringValue : this.tok.lexeme();
      const keyLocation = this.loc();
      this.next();
      this.skipWsAndDocs();
      this.expect(Tok.COLON);
      this.next();
      this.skipWsAndDocs();
      const value = this.parseNode();
      if (Object.hasOwn(entries, key)) throw this.fail(`Duplicate member: '${key}'`, undefined, keyLocation);
      setNodeKey(entries, key, value);
      this.keepExactNumber(entries, key);
      this.skipWsAndDocs();
    }
    this.expect(Tok.RBRACE);
    this.next();
    this.nesting--;
    return entries;
  }
}

// ---------------------------------------------------------------- helpers

function newShape(id: string, type: ShapeDraft["type"], location: SourceLocation, traits: TraitDraft[]): ShapeDraft {
  return { id, type, location, traits, members: [], mixins: [] };
}

/** `true`, `false` and `null` are keywords; any other unquoted id is a shape reference. */
function identifierNode(text: string, location: SourceLocation): NodeDraft {
  switch (text) {
    case "true":
      return true;
    case "false":
      return false;
    case "null":
      return null;
    default:
      return new SyntacticShapeId(text, location);
  }
}

function isPlainObject(value: NodeDraft): value is { [key: string]: NodeDraft } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof SyntacticShapeId) && !(value instanceof LocatedString);
}

function asRef(value: NodeDraft): RefDraft | undefined {
  if (value instanceof SyntacticShapeId || value instanceof LocatedString) {
    return { text: value.text, location: value.location };
  }
  return undefined;
}

function nodeType(value: NodeDraft): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof SyntacticShapeId || value instanceof LocatedString) return "string";
  return typeof value === "object" ? "object" : typeof value;
}

/** Compact JSON of a node, as upstream's `Node.printJson`. */
function printJson(value: NodeDraft): string {
  return stringifyNode(value, undefined, (v) => (v instanceof SyntacticShapeId || v instanceof LocatedString ? v.text : v));
}
