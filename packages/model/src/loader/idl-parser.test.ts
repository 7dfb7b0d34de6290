import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ValidationEvent } from "../validation-event.js";
import { SyntacticShapeId, type FileDraft, type NodeDraft, type ShapeDraft, type TraitDraft } from "./draft.js";
import { MAX_NESTING_LEVEL, parseIdl } from "./idl-parser.js";

const V2 = '$version: "2.0"\nnamespace smithy.example\n';

function parse(body: string, header = V2): FileDraft {
  return parseIdl(header + body, "test.smithy");
}

function errors(d: FileDraft): ValidationEvent[] {
  return d.events.filter((e) => e.severity === "ERROR");
}

function shape(d: FileDraft, name: string): ShapeDraft {
  const s = d.shapes.find((x) => x.id === `smithy.example#${name}`);
  if (!s) throw new Error(`no shape ${name}; have ${d.shapes.map((x) => x.id).join(", ")}`);
  return s;
}

/** Trait name → value, with syntactic shape ids shown as `<id>`. */
function traitMap(traits: TraitDraft[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of traits) out[t.name.text] = plain(t.value);
  return out;
}

function plain(v: NodeDraft | undefined): unknown {
  if (v instanceof SyntacticShapeId) return `<${v.text}>`;
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function firstError(text: string): string {
  const e = errors(parseIdl(text, "t.smithy"));
  return e[0]?.message ?? "<no error>";
}

describe("parseIdl: file structure", () => {
  it("reads the version, namespace and use statements into the resolution context", () => {
    const d = parseIdl('$version: "2"\nnamespace a.b\nuse x.y#Z\nuse smithy.api#String\n', "f");
    expect(d.version).toBe("2.0");
    expect(d.context?.namespace).toBe("a.b");
    expect([...(d.context?.uses ?? [])]).toEqual([
      ["Z", "x.y#Z"],
      ["String", "smithy.api#String"],
    ]);
    expect(d.events).toEqual([]);
  });

  it("defaults to version 1.0 when $version is absent", () => {
    expect(parseIdl("namespace a\n", "f").version).toBe("1.0");
  });

  it("warns about unknown control statements and keeps going", () => {
    const d = parseIdl('$version: "2.0"\n$foo: [1]\nnamespace a\nstring S\n', "f");
    expect(d.events).toEqual([
      {
        severity: "WARNING",
        id: "Model",
        message: "Unknown control statement `foo` with value `[1]",
        location: { file: "f", line: 2, column: 7 },
      },
    ]);
    expect(d.shapes).toHaveLength(1);
  });

  it("uses custom operation input/output suffixes", () => {
    const d = parseIdl(
      '$version: "2.0"\n$operationInputSuffix: "Request"\n$operationOutputSuffix: "Response"\nnamespace a\noperation Op {\n input := {}\n output := {}\n}\n',
      "f",
    );
    expect(d.shapes.map((s) => s.id)).toEqual(["a#Op", "a#OpRequest", "a#OpResponse"]);
  });

  it("parses metadata of every node kind", () => {
    const d = parseIdl('metadata a = "s"\nmetadata "b" = 1.5\nmetadata c = [true, false, null]\nmetadata d = {k: -2, "q": Foo}\n', "f");
    expect(d.metadata.map((m) => [m.key, plain(m.value)])).toEqual([
      ["a", "s"],
      ["b", 1.5],
      ["c", [true, false, null]],
      ["d", { k: -2, q: "<Foo>" }],
    ]);
    expect(d.metadata[1]!.location).toEqual({ file: "f", line: 2, column: 1 });
  });

  it("parses an empty file and a comment-only file", () => {
    expect(parseIdl("", "f").events).toEqual([]);
    expect(parseIdl("// nothing\n", "f").shapes).toEqual([]);
  });
});

describe("parseIdl: shapes", () => {
  it.each(["blob", "boolean", "string", "byte", "short", "integer", "long", "float", "double", "bigInteger", "bigDecimal", "timestamp", "document"])(
    "parses the simple type %s",
    (type) => {
      const d = parse(`${type} S\n`);
      expect(errors(d)).toEqual([]);
      expect(shape(d, "S").type).toBe(type);
      expect(shape(d, "S").location).toEqual({ file: "test.smithy", line: 3, column: 1 });
    },
  );

  it("locates a shape at its statement (after its traits) and members at their names", () => {
    const d = parse("@deprecated\nstructure S {\n    @required\n    a: String\n    $b\n}\n");
    const s = shape(d, "S");
    expect(s.location).toEqual({ file: "test.smithy", line: 4, column: 1 });
    expect(s.traits[0]!.location).toEqual({ file: "test.smithy", line: 3, column: 1 });
    expect(s.members.map((m) => [m.name, m.location.line, m.location.column])).toEqual([
      ["a", 6, 5],
      ["b", 7, 5],
    ]);
  });

  it("parses structure members, targets, defaults and elision", () => {
    const d = parse('structure S with [M1, M2] {\n  a: String = "x",\n  b: smithy.api#Integer = 1\n  $c\n  d: Foo$bar\n}\n');
    const s = shape(d, "S");
    expect(s.mixins.map((m) => m.text)).toEqual(["M1", "M2"]);
    expect(s.members.map((m) => [m.name, m.target?.text, m.elided, traitMap(m.traits)])).toEqual([
      ["a", "String", false, { "smithy.api#default": "x" }],
      ["b", "smithy.api#Integer", false, { "smithy.api#default": 1 }],
      ["c", undefined, true, {}],
      ["d", "Foo$bar", false, {}],
    ]);
    expect(s.members[0]!.target!.location).toEqual({ file: "test.smithy", line: 4, column: 6 });
  });

  it("binds a structure to a resource with `for`", () => {
    const d = parse("structure S for MyResource with [M] {\n  $id\n}\n");
    expect(shape(d, "S").forResource?.text).toBe("MyResource");
    expect(shape(d, "S").mixins.map((m) => m.text)).toEqual(["M"]);
  });

  it.each<[string, string, string[]]>([
    ["list", "list L { member: String }\n", ["member"]],
    ["set", "set L { member: String }\n", ["member"]],
    ["map", "map L { key: String, value: Integer }\n", ["key", "value"]],
    ["union", "union L { a: String\n b: Integer }\n", ["a", "b"]],
  ])("parses %s members", (_t, body, names) => {
    const d = parse(body);
    expect(errors(d)).toEqual([]);
    expect(shape(d, "L").members.map((m) => m.name)).toEqual(names);
  });

  it("parses enum and intEnum members with and without values", () => {
    const d = parse('enum E {\n  A\n  B = "b",\n  /// Docs\n  @tags(["x"])\n  C = "c"\n}\nintEnum I { ONE = 1\n TWO = 2 }\n');
    const e = shape(d, "E");
    expect(e.members.map((m) => [m.name, m.target?.text, traitMap(m.traits)])).toEqual([
      ["A", "smithy.api#Unit", {}],
      ["B", "smithy.api#Unit", { "smithy.api#enumValue": "b" }],
      ["C", "smithy.api#Unit", { "smithy.api#documentation": "Docs", tags: ["x"], "smithy.api#enumValue": "c" }],
    ]);
    expect(shape(d, "I").members.map((m) => plain(m.traits[0]?.value))).toEqual([1, 2]);
  });

  it("parses a service body into typed fields", () => {
    const d = parse('service S {\n  version: "2020-01-01"\n  operations: [A, b.c#B]\n  resources: ["R"]\n  errors: [E]\n  rename: {"x.y#Foo": "Bar"}\n}\n');
    const s = shape(d, "S");
    expect(s.version).toBe("2020-01-01");
    expect(s.operations?.map((r) => r.text)).toEqual(["A", "b.c#B"]);
    expect(s.resources?.map((r) => [r.text, r.location.line, r.location.column])).toEqual([["R", 6, 15]]);
    expect(s.errors?.map((r) => r.text)).toEqual(["E"]);
    expect(s.rename).toEqual({ "x.y#Foo": "Bar" });
    expect(d.events).toEqual([]);
  });

  it("parses a resource body into typed fields", () => {
    const d = parse(
      "resource R {\n identifiers: { id: String }\n properties: { p: Integer }\n create: C\n put: P\n read: Rd\n update: U\n delete: D\n list: L\n operations: [O]\n collectionOperations: [CO]\n resources: [Sub]\n}\n",
    );
    const r = shape(d, "R");
    expect(r.identifiers?.["id"]?.text).toBe("String");
    expect(r.properties?.["p"]?.text).toBe("Integer");
    expect([r.create, r.put, r.read, r.update, r.delete, r.list].map((x) => x?.text)).toEqual(["C", "P", "Rd", "U", "D", "L"]);
    expect(r.operations?.map((x) => x.text)).toEqual(["O"]);
    expect(r.collectionOperations?.map((x) => x.text)).toEqual(["CO"]);
    expect(r.resources?.map((x) => x.text)).toEqual(["Sub"]);
  });

  it("warns about unknown service properties", () => {
    const d = parse("service S { foo: 1 }\n");
    expect(d.events.map((e) => [e.severity, e.shapeId, e.message])).toEqual([
      [
        "WARNING",
        "smithy.example#S",
        "Expected an object with possible properties of `errors`, `operations`, `rename`, `resources`, `type`, `version`, but found additional properties: `foo`",
      ],
    ]);
  });

  it("parses operation input/output/errors by reference", () => {
    const d = parse("operation Op {\n  input: In\n  output: Out\n  errors: [E1, E2]\n}\n");
    const o = shape(d, "Op");
    expect([o.input?.text, o.output?.text, o.errors?.map((e) => e.text)]).toEqual(["In", "Out", ["E1", "E2"]]);
  });

  it("creates inline input/output structures", () => {
    const d = parse("operation Op {\n  input := @sensitive with [M] {\n    a: String\n  }\n  output :=\n    /// Out docs\n    {}\n}\n");
    const o = shape(d, "Op");
    expect([o.input?.text, o.output?.text]).toEqual(["smithy.example#OpInput", "smithy.example#OpOutput"]);
    const input = shape(d, "OpInput");
    expect(input.type).toBe("structure");
    expect(input.mixins.map((m) => m.text)).toEqual(["M"]);
    expect(input.members.map((m) => m.name)).toEqual(["a"]);
    expect(traitMap(input.traits)).toEqual({ sensitive: undefined, "smithy.api#input": {} });
    expect(traitMap(shape(d, "OpOutput").traits)).toEqual({ "smithy.api#documentation": "Out docs", "smithy.api#output": {} });
  });

  it("parses apply statements, single and block", () => {
    const d = parse("apply Foo @deprecated\napply Foo$bar {\n  @a\n  @b(1)\n}\napply Baz {}\n");
    expect(d.applies.map((a) => [a.target.text, a.traits.map((t) => t.name.text), a.location.line])).toEqual([
      ["Foo", ["deprecated"], 3],
      ["Foo$bar", ["a", "b"], 4],
      ["Baz", [], 8],
    ]);
  });
});

describe("parseIdl: traits and node values", () => {
  it.each<[string, string, unknown]>([
    ["annotation", "@foo", undefined],
    ["empty parens are an annotation", "@foo()", undefined],
    ["string", '@foo("a")', "a"],
    ["text block", '@foo("""\n    a\n      b\n    """)', "a\n  b\n"],
    ["number", "@foo(-1.5e2)", -150],
    ["integer", "@foo(42)", 42],
    ["boolean", "@foo(true)", true],
    ["null", "@foo(null)", null],
    ["shape id", "@foo(Bar)", "<Bar>"],
    ["absolute shape id", "@foo(a.b#C$d)", "<a.b#C$d>"],
    ["list", '@foo([1, "two", [], {}])', [1, "two", [], {}]],
    ["object", '@foo({a: 1, "b c": [x]})', { a: 1, "b c": ["<x>"] }],
    ["structured shorthand", "@foo(min: 1, max: 2)", { min: 1, max: 2 }],
    ["structured shorthand with quoted keys and trailing comma", '@foo("a": 1, b: "x",)', { a: 1, b: "x" }],
    ["structured shorthand across lines with comments", "@foo(\n  a: 1 // c\n  /// d\n  b: 2\n)", { a: 1, b: 2 }],
    ["escapes", '@foo("\\u0041\\n\\"")', 'A\n"'],
    ["__proto__ key stays data", '@foo({"__proto__": 1})', { ["__proto__"]: 1 }],
  ])("%s", (_name, trait, expected) => {
    const d = parse(`${trait}\nstring S\n`);
    expect(errors(d)).toEqual([]);
    const t = shape(d, "S").traits[0]!;
    expect(t.name.text).toBe("foo");
    expect(plain(t.value)).toEqual(expected);
  });

  it("keeps trait names as written and locates traits at '@'", () => {
    const d = parse("@smithy.api#required\n  @b.c#d(1)\nstring S\n");
    const ts = shape(d, "S").traits;
    expect(ts.map((t) => [t.name.text, t.location.line, t.location.column])).toEqual([
      ["smithy.api#required", 3, 1],
      ["b.c#d", 4, 3],
    ]);
  });

  it("places the documentation trait first and joins doc lines", () => {
    const d = parse("/// First line\n///   indented\n///no space\n///\n@deprecated\nstring S\n");
    const ts = shape(d, "S").traits;
    expect(ts.map((t) => t.name.text)).toEqual(["smithy.api#documentation", "deprecated"]);
    expect(ts[0]!.value).toBe("First line\n  indented\nno space\n");
    expect(ts[0]!.location).toEqual({ file: "test.smithy", line: 3, column: 1 });
  });

  it("warns about documentation comments attached to nothing", () => {
    const d = parse("@deprecated\n/// after traits\nstring S\nstructure T {\n  a: String\n  /// dangling\n}\n/// at EOF\n");
    expect(d.events.map((e) => [e.severity, e.id, e.message.replace(/^.*were: /, "")])).toEqual([
      ["WARNING", "Model.BadDocumentationComment", "after traits"],
      ["WARNING", "Model.BadDocumentationComment", "dangling"],
      ["WARNING", "Model.BadDocumentationComment", "at EOF"],
    ]);
  });

  it("ignores documentation comments at the end of a statement line", () => {
    const d = parse("string A /// not docs\n\nstring B\n");
    expect(shape(d, "B").traits).toEqual([]);
    expect(d.events).toEqual([]);
  });
});

describe("parseIdl: syntax errors", () => {
  it.each<[string, string, string]>([
    ["missing namespace", "string Foo\n", "Syntax error at line 1, column 1: Expected a namespace definition but found IDENTIFIER('string')"],
    ["unknown shape type", "namespace a\nfoo Bar\n", "Syntax error at line 2, column 1: Unknown shape type: foo"],
    ["missing space after shape type", "namespace a\nstring\n", "Syntax error at line 2, column 7: Expected SPACE(' ') but found NEWLINE('\n')"],
    ["missing brace", "namespace a\nstructure A {\n", "Syntax error at line 3, column 1: Expected RBRACE('}') but found EOF"],
    [
      "unclosed node list",
      "namespace a\n@foo([\n",
      "Syntax error at line 3, column 1: Expected one of STRING('\"'), TEXT_BLOCK('\"\"\"'), NUMBER, IDENTIFIER, LBRACE('{'), LBRACKET('['); but found EOF",
    ],
    [
      "bad trait body",
      "namespace a\n@foo(.1)\nstring S\n",
      "Syntax error at line 2, column 6: Expected one of LBRACE('{'), LBRACKET('['), TEXT_BLOCK('\"\"\"'), STRING('\"'), NUMBER, IDENTIFIER; but found DOT('.')",
    ],
    [
      "statement on the same line",
      "namespace a\nstring A string B\n",
      "Syntax error at line 2, column 10: Expected a line break, but found IDENTIFIER('string')",
    ],
    ["duplicate member", "namespace a\nstructure S {\n a: String\n a: String\n}\n", "Syntax error at line 4, column 2: Duplicate member of `a#S`: 'a'"],
    ["duplicate object key", "namespace a\n@foo({a: 1, a: 2})\nstring S\n", "Duplicate member: 'a'"],
    ["duplicate trait key", "namespace a\n@foo(a: 1, a: 2)\nstring S\n", "Duplicate member of trait: 'a'"],
    ["duplicate control statement", '$version: "2.0"\n$version: "2.0"\n', "Syntax error at line 2, column 11: Duplicate control statement `version`"],
    ["unsupported version", '$version: "3"\n', "Syntax error at line 1, column 14: Unsupported Smithy version number: 3"],
    ["non-string version", "$version: 2\n", "The $version control statement must have a string value, but found 2"],
    [
      "mixins in 1.0",
      "namespace a\nstructure A with [B] {}\n",
      "Syntax error at line 2, column 13: Mixins can only be used with Smithy version 2 or later. Attempted to use mixins with version `1.0`.",
    ],
    [
      "default in 1.0",
      'namespace a\nstructure A { b: String = "" }\n',
      "Syntax error at line 2, column 25: @default assignment is only supported in IDL version 2 or later",
    ],
    [
      "inline IO in 1.0",
      "namespace a\noperation O { input := {} }\n",
      "Syntax error at line 2, column 23: Inlined operation inputs and outputs can only be used with Smithy version 2 or later. Attempted to use inlined IO with version `1.0`.",
    ],
    ["unknown operation property", V2 + "operation O { foo: Bar }\n", "Syntax error at line 3, column 18: Unknown property foo for smithy.example#O"],
    ["use of a member", "namespace a\nuse b#C$d\n", "Use statements cannot use members"],
    ["conflicting use", "namespace a\nuse b#C\nuse d#C\n", "Cannot use name `d#C` because it conflicts with `b#C`"],
    ["shape conflicting with use", "namespace a\nuse b#C\nstring C\n", "Shape name `C` conflicts with imported shape `b#C`"],
    [
      "invalid escape",
      'namespace a\n@foo("\\q")\nstring S\n',
      "Syntax error at line 2, column 6: Error parsing quoted string: Invalid escape found in string: `\\q`",
    ],
    ["unexpected character", "namespace a\n%\n", "Syntax error at line 2, column 1: Unexpected character: '%'"],
    ["walrus outside operations", V2 + "structure S { a := {} }\n", "Syntax error at line 3, column 17: Expected COLON(':') but found WALRUS(':=')"],
  ])("%s", (_name, text, message) => {
    expect(firstError(text)).toBe(message);
  });

  it("stops at the first error, keeps what was parsed and sets the location", () => {
    const d = parseIdl("namespace a\nstring A\nstring B string C\nstring D\n", "f");
    expect(d.shapes.map((s) => s.id)).toEqual(["a#A", "a#B"]);
    expect(errors(d)).toEqual([
      {
        severity: "ERROR",
        id: "Model",
        message: "Syntax error at line 3, column 10: Expected a line break, but found IDENTIFIER('string')",
        location: { file: "f", line: 3, column: 10 },
      },
    ]);
  });

  it("attaches the shape id to shape-specific syntax errors", () => {
    const e = errors(parseIdl("namespace a\nstructure S {\n a: String\n a: String\n}\n", "f"))[0]!;
    expect(e.shapeId).toBe("a#S");
  });
});

describe("parseIdl: robustness", () => {
  it.each<[string, string, string]>([
    ["deep arrays", "namespace a\n@foo(" + "[".repeat(100_000), `Parser exceeded maximum allowed depth of ${MAX_NESTING_LEVEL}`],
    ["deep objects", "namespace a\n@foo(" + "{a:".repeat(100_000), `Parser exceeded maximum allowed depth of ${MAX_NESTING_LEVEL}`],
    ["deep metadata", "metadata x = " + "[".repeat(100_000), `Parser exceeded maximum allowed depth of ${MAX_NESTING_LEVEL}`],
    ["deep braces", "namespace a\n@foo(" + "{".repeat(100_000), "Expected one of RBRACE('}'), STRING('\"'), IDENTIFIER; but found LBRACE('{')"],
    ["binary garbage", "\u0000\u0001\u00ff\ud800garbage", "Expected a namespace definition but found ERROR('\\u0000')"],
    ["10 MB unclosed string", 'namespace a\n@foo("' + "x".repeat(10_000_000), "Expected: '\"', but found '[EOF]'"],
    ["10 MB line of junk", "namespace a\n" + "!".repeat(10_000_000), "Unexpected character: '!'"],
  ])("%s gives a clear error without hanging", (_name, text, message) => {
    // A hang guard only (a CI machine under load is slow); speed is measured by `pnpm bench model`.
    const start = performance.now();
    const d = parseIdl(text, "f");
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(errors(d)).toHaveLength(1);
    expect(errors(d)[0]!.message).toContain(message);
  });

  it("accepts exactly the maximum nesting depth", () => {
    const ok = parseIdl(`namespace a\n@foo(${"[".repeat(MAX_NESTING_LEVEL)}${"]".repeat(MAX_NESTING_LEVEL)})\nstring S\n`, "f");
    expect(errors(ok)).toEqual([]);
  });

  it("parses a 10 MB identifier without trouble", () => {
    const d = parseIdl("namespace a\nstring " + "a".repeat(10_000_000) + "\n", "f");
    expect(errors(d)).toEqual([]);
    expect(d.shapes).toHaveLength(1);
  });

  it("never throws on arbitrary prefixes of a valid model", () => {
    const model =
      V2 +
      'use a.b#C\n/// Doc\n@length(min: 1)\nstructure S with [M] {\n  @required\n  a: String = "x"\n  $b\n}\noperation O {\n  input := { c: C }\n  errors: [E]\n}\nenum E { A = "a"\n B }\napply S @tags(["t"])\n';
    for (let i = 0; i <= model.length; i++) {
      expect(() => parseIdl(model.slice(0, i), "f")).not.toThrow();
    }
  });

  it("parses a 400 KB model (its speed is measured by `pnpm bench model`)", () => {
    let text = V2;
    for (let i = 0; text.length < 400_000; i++) {
      text += `/// Docs ${i}\n@length(min: 1)\nstructure S${i} {\n  @required\n  a: String = "x"\n  b: S${i + 1}\n}\n\n`;
      text += `operation O${i} {\n  input := { id: String }\n  errors: [E]\n}\n\n`;
    }
    const d = parseIdl(text, "f");
    expect(errors(d)).toEqual([]);
    expect(d.shapes.length).toBeGreaterThan(2000);
  });
});

// ---------------------------------------------------------------- conformance corpus

const CORPUS = fileURLToPath(new URL("../../../../../shared/conformance/idl", import.meta.url));
const hasCorpus = existsSync(CORPUS);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

/** Upstream's event rendering, used by the corpus expectations. */
function render(e: ValidationEvent): string {
  return `[${e.severity}] ${e.shapeId ?? "-"}: ${e.message} | ${e.id}`;
}

/** Expectations write line breaks as `\n` and may drop `[EOF]`. */
function normalize(s: string): string {
  return s.replaceAll("[EOF]", "").replaceAll("\r", "\\r").replaceAll("\n", "\\n");
}

/** Current results; the corpus test fails if the parser regresses below them. */
const INVALID_REJECTED_MIN = 157;
const INVALID_EXACT_MIN = 157;
const INVALID_LINE_COLUMN_MIN = 144;

describe.skipIf(!hasCorpus)("parseIdl: conformance corpus", () => {
  it("parses every valid IDL file without errors", () => {
    const files = walk(join(CORPUS, "valid")).filter((f) => f.endsWith(".smithy"));
    expect(files.length).toBeGreaterThanOrEqual(59);
    const failures = files
      .map((f) => [relative(CORPUS, f), errors(parseIdl(readFileSync(f, "utf8"), f)).map((e) => e.message)] as const)
      .filter(([, errs]) => errs.length > 0);
    expect(failures).toEqual([]);
  });

  it("rejects invalid IDL files with upstream's messages and positions", () => {
    const files = walk(join(CORPUS, "invalid")).filter((f) => f.endsWith(".smithy"));
    let rejected = 0;
    let exact = 0;
    let lineColumn = 0;
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      const expected = normalize(
        text
          .slice(0, text.indexOf("\n"))
          .replace(/^\/\/\s?/, "")
          .trim(),
      );
      const actual = errors(parseIdl(text, f)).map((e) => normalize(render(e)));
      if (actual.length > 0) rejected++;
      if (actual.some((a) => a.includes(expected))) exact++;
      const pos = /Syntax error at line \d+, column \d+/.exec(expected);
      if (pos && actual.some((a) => a.includes(pos[0]))) lineColumn++;
    }
    console.info(`IDL invalid corpus: ${files.length} files, ${rejected} rejected, ${exact} exact messages, ${lineColumn} line:column matches`);
    expect(rejected).toBeGreaterThanOrEqual(INVALID_REJECTED_MIN);
    expect(exact).toBeGreaterThanOrEqual(INVALID_EXACT_MIN);
    expect(lineColumn).toBeGreaterThanOrEqual(INVALID_LINE_COLUMN_MIN);
  });

  it("emits the parser-level events expected by the loader error files", () => {
    const dir = join(CORPUS, "errorfiles", "loader");
    // Events the parser is responsible for (the rest belong to the assembler and validators).
    const parserLevel = /Syntax error|Duplicate member|BadDocumentationComment/;
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".smithy"))) {
      const expected = readFileSync(join(dir, f.replace(/\.smithy$/, ".errors")), "utf8")
        .split("\n")
        .filter((l) => parserLevel.test(l));
      const actual = parseIdl(readFileSync(join(dir, f), "utf8"), f).events.map((e) => normalize(render(e)));
      expect(actual, f).toEqual(expected);
    }
  });
});
