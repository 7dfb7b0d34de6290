import { describe, expect, it } from "vitest";
import { call, code, docComment, literal } from "./code.js";
import { escapeName, kebabCase, NameScope, propertyKey } from "./names.js";

describe("literal", () => {
  it.each([
    ["text", `"text"`],
    ["line\u2028sep", `"line\u2028sep"`],
    [1.5, "1.5"],
    [-0, "-0"],
    [Number.NaN, "Number.NaN"],
    [Number.NEGATIVE_INFINITY, "Number.NEGATIVE_INFINITY"],
    [12345678901234567890n, "12345678901234567890n"],
    [null, "null"],
    [undefined, "undefined"],
    [[], "[]"],
    [{}, "{}"],
    [{ a: 1, "b-c": [true], __proto__x: 2 }, `{ a: 1, "b-c": [true], __proto__x: 2 }`],
    [JSON.parse(`{"__proto__": 1}`), `{ ["__proto__"]: 1 }`],
    [{ at: code("new Date(0)") }, "{ at: new Date(0) }"],
  ])("writes %s as %s", (value, expected) => {
    expect(literal(value)).toBe(expected);
  });

  it("breaks long objects one entry per line, nested at two spaces", () => {
    const long = { first: "x".repeat(60), second: { inner: "y".repeat(60) } };
    expect(literal(long)).toBe(`{\n  first: "${"x".repeat(60)}",\n  second: { inner: "${"y".repeat(60)}" },\n}`);
  });
});

describe("call", () => {
  it("keeps short calls on one line and splits long ones", () => {
    expect(call("export const x = ", "f", ["1", "2"])).toBe("f(1, 2)");
    expect(call("export const x = ", "f", ["a".repeat(60), "b".repeat(60)])).toBe(`f(\n  ${"a".repeat(60)},\n  ${"b".repeat(60)},\n)`);
  });
});

describe("docComment", () => {
  it.each([
    [["One line."], "", "/** One line. */\n"],
    [["First.", undefined, "  "], "", "/** First. */\n"],
    [["Two\nlines."], "  ", "  /**\n   * Two\n   * lines.\n   */\n"],
    [["Para.", "@deprecated"], "", "/**\n * Para.\n *\n * @deprecated\n */\n"],
    [["Ends a comment: */ here."], "", "/** Ends a comment: *\\/ here. */\n"],
    [[undefined], "", ""],
  ])("writes %j", (lines, indent, expected) => {
    expect(docComment(lines, indent)).toBe(expected);
  });
});

describe("names", () => {
  it.each([
    ["Weather", "weather"],
    ["LargeService", "large-service"],
    ["S3Control", "s3-control"],
    ["EC2Service", "ec2-service"],
    ["already-kebab", "already-kebab"],
  ])("kebab-cases %s as %s", (name, expected) => {
    expect(kebabCase(name)).toBe(expected);
  });

  it.each([
    ["Object", "_Object"],
    ["Record", "_Record"],
    ["string", "_string"],
    ["delete", "_delete"],
    ["Widget", "Widget"],
  ])("escapes %s as %s", (name, expected) => {
    expect(escapeName(name)).toBe(expected);
  });

  it("quotes property keys that are not identifiers", () => {
    expect(propertyKey("ok")).toBe("ok");
    expect(propertyKey("m5.large")).toBe(`"m5.large"`);
    expect(propertyKey("__proto__")).toBe(`["__proto__"]`);
  });

  it("keeps types and values apart, and numbers a name taken twice", () => {
    const scope = new NameScope();
    expect(scope.type("A")).toBe("A");
    expect(scope.value("A")).toBe("A");
    expect(scope.type("A")).toBe("A2");
    expect(scope.both("A")).toBe("A3");
  });
});
