import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadModel } from "../load-model.js";
import { parseIdl } from "./idl-parser.js";
import { parseJsonAst } from "./json-ast-loader.js";

/** Fragments of real IDL, so random sequences reach deep into the grammar. */
const IDL_PIECES = [
  '$version: "2.0"\n',
  "namespace ex\n",
  "use a.b#C\n",
  "metadata m = ",
  "structure ",
  "union ",
  "list ",
  "map ",
  "enum ",
  "intEnum ",
  "service ",
  "operation ",
  "resource ",
  "apply ",
  "S",
  "T",
  "$member",
  " for ",
  " with ",
  "[",
  "]",
  "{",
  "}",
  "(",
  ")",
  ":",
  ":=",
  "=",
  ",",
  "@",
  "@trait",
  "@required",
  '@http(method: "GET", uri: "/x")',
  '"str"',
  '"""\n  block\n  """',
  "1",
  "-2.5e3",
  "true",
  "null",
  "#",
  "$",
  "///doc\n",
  "// c\n",
  "\n",
  " ",
  "input",
  "output",
  "errors",
  "member",
  "key",
  "value",
];

describe("decoders never crash", () => {
  it("parseIdl returns events, never throws, on random IDL fragments", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...IDL_PIECES), { maxLength: 60 }), (pieces) => {
        const draft = parseIdl(pieces.join(""), "fuzz.smithy");
        expect(Array.isArray(draft.events)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("parseIdl never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: "binary" }), (text) => {
        parseIdl(text, "fuzz.smithy");
      }),
      { numRuns: 2000 },
    );
  });

  it("parseJsonAst never throws on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        parseJsonAst(JSON.stringify({ smithy: "2.0", shapes: { "ex#S": value } }), "fuzz.json");
        parseJsonAst(JSON.stringify(value), "fuzz.json");
      }),
      { numRuns: 1000 },
    );
  });

  it("loadModel (assembly and validation) never throws on random IDL fragments", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...IDL_PIECES), { maxLength: 40 }), (pieces) => {
        const { events } = loadModel({ sources: [{ file: "fuzz.smithy", text: `$version: "2.0"\nnamespace ex\n${pieces.join("")}` }], bundledTraits: false });
        expect(Array.isArray(events)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("assembly survives mutated real models", () => {
  const valid = join(import.meta.dirname, "../../../../../shared/conformance/idl/valid");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".smithy")) files.push(path);
    }
  };
  if (existsSync(valid)) walk(valid);

  it.skipIf(files.length === 0)("loadModel never throws when lines of the corpus's valid models are dropped or repeated", () => {
    const texts = files.map((f) => readFileSync(f, "utf8").split("\n"));
    fc.assert(
      fc.property(fc.nat(texts.length - 1), fc.array(fc.tuple(fc.nat(200), fc.boolean()), { maxLength: 4 }), (which, edits) => {
        const lines = [...texts[which]!];
        for (const [at, repeat] of edits) {
          const i = at % Math.max(1, lines.length);
          if (repeat) lines.splice(i, 0, lines[i] ?? "");
          else lines.splice(i, 1);
        }
        const { events } = loadModel({ sources: [{ file: "mutated.smithy", text: lines.join("\n") }], bundledTraits: false });
        expect(Array.isArray(events)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
