import {
  SELECTOR_COMPARATORS,
  type SelectorComparator,
  type SelectorExpression,
  type SelectorPathSegment,
  type SelectorScopedAssertion,
  type SelectorScopedValue,
} from "./ast.js";
import { SHAPE_TYPES } from "../shape.js";
import { SelectorSyntaxError } from "./selector-syntax-error.js";

/** Shape type names accepted as selector expressions (besides `*`). */
export const SELECTOR_SHAPE_TYPES: ReadonlySet<string> = new Set([...SHAPE_TYPES, "member", "number", "simpleType", "collection", "dataType"]);

/** Attribute names that may start an attribute path. */
export const SELECTOR_ATTRIBUTES: ReadonlySet<string> = new Set(["id", "trait", "service", "var", "shape"]);

/** Argument counts of the known functions: [min, max]. Unknown functions accept any count. */
const FUNCTION_ARITY: Readonly<Record<string, readonly [number, number]>> = {
  is: [1, Infinity],
  each: [1, Infinity],
  test: [1, Infinity],
  not: [1, 1],
  in: [1, 1],
  root: [1, 1],
  recursive: [1, 1],
  topdown: [1, 2],
};

const isIdentStart = (c: string): boolean => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
const isIdentChar = (c: string): boolean => isIdentStart(c) || (c >= "0" && c <= "9");
/** Characters of an unquoted attribute value: root shape ids, numbers, identifiers (member ids must be quoted). */
const isBareValueChar = (c: string): boolean => isIdentChar(c) || c === "." || c === "#" || c === "-" || c === "+";

/**
 * Parses selector text into its expressions. Throws {@link SelectorSyntaxError}.
 * Use `parseSelector` (which caches and compiles) rather than this directly.
 */
export function parseSelectorExpressions(text: string): SelectorExpression[] {
  const parser = new Parser(text);
  const result = parser.selector(false);
  parser.ws();
  if (!parser.eof()) parser.fail(`unexpected '${parser.peek()}'`);
  return result;
}

class Parser {
  pos = 0;
  constructor(readonly text: string) {}

  fail(reason: string, at = this.pos): never {
    throw new SelectorSyntaxError(reason, this.text, Math.min(at, this.text.length));
  }

  eof(): boolean {
    return this.pos >= this.text.length;
  }

  peek(offset = 0): string {
    return this.text.charAt(this.pos + offset);
  }

  /** Skips whitespace, commas are significant. Also skips `//` line comments. */
  ws(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else if (c === 47 && t.charCodeAt(this.pos + 1) === 47) {
        while (this.pos < t.length && t.charCodeAt(this.pos) !== 10) this.pos++;
      } else break;
    }
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  expect(s: string, what = `'${s}'`): void {
    this.ws();
    if (!this.startsWith(s)) this.fail(this.eof() ? `expected ${what} but found end of selector` : `expected ${what} but found '${this.peek()}'`);
    this.pos += s.length;
  }

  identifier(what = "an identifier"): string {
    this.ws();
    const start = this.pos;
    if (!isIdentStart(this.peek())) this.fail(this.eof() ? `expected ${what} but found end of selector` : `expected ${what} but found '${this.peek()}'`);
    while (this.pos < this.text.length && isIdentChar(this.text.charAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** Parses expressions until end of input, or (nested) until `,` or `)`. */
  selector(nested: boolean): SelectorExpression[] {
    const exprs: SelectorExpression[] = [];
    for (;;) {
      this.ws();
      if (this.eof()) break;
      const c = this.peek();
      if (nested && (c === "," || c === ")")) break;
      exprs.push(this.expression());
    }
    if (exprs.length === 0) this.fail(this.eof() ? "expected a selector but found end of selector" : "expected a selector");
    return exprs;
  }

  expression(): SelectorExpression {
    const start = this.pos;
    const c = this.peek();
    switch (c) {
      case "*":
        this.pos++;
        return { kind: "shapeType", shapeType: "*" };
      case "[":
        this.pos++;
        this.ws();
        if (this.peek() === "@") {
          this.pos++;
          return this.scopedAttribute();
        }
        return this.attribute();
      case ">":
        this.pos++;
        return { kind: "neighbor", direction: "forward" };
      case "<":
        if (this.startsWith("<-[")) {
          this.pos += 3;
          const relationships = this.relationships();
          this.expect("]-", "']-'");
          return { kind: "neighbor", direction: "reverse", relationships };
        }
        this.pos++;
        return { kind: "neighbor", direction: "reverse" };
      case "-":
        if (this.startsWith("-[")) {
          this.pos += 2;
          const relationships = this.relationships();
          this.expect("]->", "']->'");
          return { kind: "neighbor", direction: "forward", relationships };
        }
        return this.fail("expected '-[' to start a directed neighbor");
      case "~":
        if (this.startsWith("~>")) {
          this.pos += 2;
          return { kind: "recursiveNeighbor" };
        }
        return this.fail("expected '~>'");
      case ":": {
        this.pos++;
        const name = this.identifier("a function name");
        this.expect("(", `'(' after ':${name}'`);
        const args: SelectorExpression[][] = [this.selector(true)];
        for (;;) {
          this.ws();
          if (this.peek() === ",") {
            this.pos++;
            args.push(this.selector(true));
          } else break;
        }
        this.expect(")", "',' or ')'");
        const arity = FUNCTION_ARITY[name];
        if (arity && (args.length < arity[0] || args.length > arity[1])) {
          const want = arity[0] === arity[1] ? `exactly ${arity[0]}` : arity[1] === Infinity ? `at least ${arity[0]}` : `${arity[0]} or ${arity[1]}`;
          this.fail(`:${name} takes ${want} selector argument${arity[1] === 1 ? "" : "s"}, got ${args.length}`, start);
        }
        return { kind: "function", name, args };
      }
      case "$": {
        this.pos++;
        if (this.peek() === "{") {
          this.pos++;
          const name = this.identifier("a variable name");
          this.expect("}");
          return { kind: "variableGet", name };
        }
        const name = this.identifier("a variable name");
        this.expect("(", `'(' after '$${name}'`);
        const selector = this.selector(true);
        this.ws();
        if (this.peek() === ",") this.fail(`$${name}(...) takes exactly one selector`);
        this.expect(")");
        return { kind: "variableSet", name, selector };
      }
      default: {
        if (!isIdentStart(c)) return this.fail(`unexpected '${c}'`);
        const name = this.identifier();
        if (!SELECTOR_SHAPE_TYPES.has(name)) this.fail(`unknown shape type '${name}'`, start);
        return { kind: "shapeType", shapeType: name };
      }
    }
  }

  relationships(): string[] {
    const rels = [this.identifier("a relationship name")];
    for (;;) {
      this.ws();
      if (this.peek() !== ",") return rels;
      this.pos++;
      rels.push(this.identifier("a relationship name"));
    }
  }

  /** A path segment: `(name)`, a quoted string, or a bare value. */
  segment(): SelectorPathSegment {
    this.ws();
    if (this.peek() === "(") {
      this.pos++;
      const name = this.identifier("a function property name");
      this.expect(")");
      return { kind: "function", name };
    }
    const name = this.value("a property name");
    return { kind: "property", name, traitId: name.includes("#") ? name : `smithy.api#${name}` };
  }

  /** A quoted string or a bare value (identifier, shape id or number). */
  value(what = "a value"): string {
    this.ws();
    const q = this.peek();
    if (q === "'" || q === '"') {
      const start = this.pos;
      const end = this.text.indexOf(q, this.pos + 1);
      if (end < 0) this.fail("unterminated quoted string", start);
      this.pos = end + 1;
      return this.text.slice(start + 1, end);
    }
    const start = this.pos;
    while (this.pos < this.text.length && isBareValueChar(this.text.charAt(this.pos))) this.pos++;
    if (this.pos === start) this.fail(this.eof() ? `expected ${what} but found end of selector` : `expected ${what} but found '${this.peek()}'`);
    return this.text.slice(start, this.pos);
  }

  path(): SelectorPathSegment[] {
    const path = [this.segment()];
    for (;;) {
      this.ws();
      if (this.peek() !== "|") return path;
      this.pos++;
      path.push(this.segment());
    }
  }

  attributePath(): SelectorPathSegment[] {
    this.ws();
    const start = this.pos;
    const name = this.identifier("an attribute name");
    if (!SELECTOR_ATTRIBUTES.has(name)) this.fail(`unknown attribute '${name}' (expected id, trait, service, var or shape)`, start);
    const path: SelectorPathSegment[] = [{ kind: "property", name, traitId: `smithy.api#${name}` }];
    for (;;) {
      this.ws();
      if (this.peek() !== "|") return path;
      this.pos++;
      path.push(this.segment());
    }
  }

  comparator(): SelectorComparator {
    this.ws();
    for (const c of SELECTOR_COMPARATORS) {
      if (this.startsWith(c)) {
        this.pos += c.length;
        return c;
      }
    }
    return this.fail(this.eof() ? "expected a comparator but found end of selector" : `expected a comparator or ']' but found '${this.peek()}'`);
  }

  /** Consumes a trailing case-insensitivity flag `i` if present. */
  caseFlag(): boolean {
    this.ws();
    if (this.peek() === "i" && !isIdentChar(this.peek(1))) {
      this.pos++;
      return true;
    }
    return false;
  }

  attribute(): SelectorExpression {
    const path = this.attributePath();
    this.ws();
    if (this.peek() === "]") {
      this.pos++;
      return { kind: "attribute", path };
    }
    const comparator = this.comparator();
    const values = [this.value()];
    for (;;) {
      this.ws();
      if (this.peek() !== ",") break;
      this.pos++;
      values.push(this.value());
    }
    const caseInsensitive = this.caseFlag();
    this.expect("]", "',' or ']'");
    return { kind: "attribute", path, comparison: { comparator, values, caseInsensitive } };
  }

  scopedValue(): SelectorScopedValue {
    this.ws();
    if (this.startsWith("@{")) {
      this.pos += 2;
      const path = this.path();
      this.expect("}");
      return { kind: "context", path };
    }
    return { kind: "literal", value: this.value() };
  }

  scopedAttribute(): SelectorExpression {
    this.ws();
    const scope = this.peek() === ":" ? [] : this.attributePath();
    this.expect(":", "':' after the scoped attribute");
    const assertions: SelectorScopedAssertion[] = [];
    for (;;) {
      const left = this.scopedValue();
      const comparator = this.comparator();
      const right = [this.scopedValue()];
      for (;;) {
        this.ws();
        if (this.peek() !== ",") break;
        this.pos++;
        right.push(this.scopedValue());
      }
      const caseInsensitive = this.caseFlag();
      assertions.push({ left, comparator, right, caseInsensitive });
      this.ws();
      if (this.startsWith("&&")) {
        this.pos += 2;
        continue;
      }
      this.expect("]", "'&&' or ']'");
      return { kind: "scopedAttribute", scope, assertions };
    }
  }
}
