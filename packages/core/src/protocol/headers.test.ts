import { describe, expect, it } from "vitest";
import { HttpHeaders } from "./headers.js";

/** The entries of a Headers (the DOM lib this package compiles with has no iterable Headers). */
const all = (headers: Headers): [string, string][] => [...(headers as unknown as Iterable<[string, string]>)];

type Step = readonly ["append" | "set", string, string] | readonly ["delete", string];

/** Runs the same steps on the standard class and on ours and compares everything they show. */
function sameAsStandard(steps: readonly Step[]): void {
  const standard = new Headers();
  const ours = new HttpHeaders();
  for (const step of steps) {
    if (step[0] === "delete") {
      standard.delete(step[1]);
      ours.delete(step[1]);
    } else {
      standard[step[0]](step[1], step[2]);
      ours[step[0]](step[1], step[2]);
    }
  }
  expect(all(ours)).toEqual(all(standard));
  expect([...ours.keys()]).toEqual(all(standard).map(([name]) => name));
  expect([...ours.values()]).toEqual(all(standard).map(([, value]) => value));
  expect(ours.getSetCookie()).toEqual(standard.getSetCookie());
  const seen: [string, string][] = [];
  ours.forEach((value, name) => seen.push([name, value]));
  expect(seen).toEqual(all(standard));
  // The flat list writers take, from either class; a copy the caller may add to.
  expect(HttpHeaders.fieldList(ours)).toEqual(all(standard).flat());
  expect(HttpHeaders.fieldList(standard)).toEqual(all(standard).flat());
  HttpHeaders.fieldList(ours).push("x-extra", "1");
  expect(ours.has("x-extra")).toBe(false);
  for (const name of ["Content-Type", "x-amz-target", "set-cookie", "X-Multi", "absent"]) {
    expect(ours.get(name)).toBe(standard.get(name));
    expect(ours.has(name)).toBe(standard.has(name));
  }
}

describe("HttpHeaders", () => {
  it("behaves like the standard Headers class", () => {
    sameAsStandard([
      ["append", "X-Multi", "a"],
      ["append", "x-multi", " b\t"],
      ["set", "Content-Type", "application/json"],
      ["append", "Set-Cookie", "a=1"],
      ["append", "set-cookie", "b=2"],
      ["append", "X-Amz-Target", "Svc.Op"],
      ["set", "content-type", "text/plain"],
    ]);
    sameAsStandard([
      ["append", "b", "1"],
      ["append", "a", "2"],
      ["delete", "B"],
      ["append", "set-cookie", "x=1"],
      ["set", "Set-Cookie", "y=2"],
      ["append", "c", ""],
    ]);
  });

  it("copies every kind of init", () => {
    const pairs: [string, string][] = [
      ["B", "2"],
      ["a", "1"],
      ["a", "3"],
    ];
    expect(all(new HttpHeaders(pairs))).toEqual(all(new Headers(pairs)));
    expect(all(new HttpHeaders({ B: "2", a: "1" }))).toEqual(all(new Headers({ B: "2", a: "1" })));
    expect(all(new HttpHeaders(new Headers(pairs)))).toEqual(all(new Headers(pairs)));
    expect(all(new Headers(new HttpHeaders(pairs)))).toEqual(all(new Headers(pairs)));
  });

  it("refuses what the standard class refuses", () => {
    const ours = new HttpHeaders();
    expect(() => ours.append("bad name", "x")).toThrow(TypeError);
    expect(() => ours.append("", "x")).toThrow(TypeError);
    expect(() => ours.set("x", "a\r\nb")).toThrow(TypeError);
    expect(() => ours.set("x", "a\0b")).toThrow(TypeError);
    // Past U+00FF: not a byte (the standard class throws too); short values are checked by hand, long ones by regex.
    expect(() => new Headers({ x: "\u2713" })).toThrow(TypeError);
    expect(() => ours.set("x", "ok \u2713")).toThrow("U+2713 at index 3");
    expect(() => ours.set("x", `${"a".repeat(80)}\u{1F600}`)).toThrow("U+D83D at index 80");
    ours.set("x", "caf\u00e9"); // Latin-1 is a byte each, as in the standard class
    expect(ours.get("x")).toBe(new Headers({ x: "caf\u00e9" }).get("x"));
    expect(() => new HttpHeaders([["only-a-name"]] as unknown as [string, string][])).toThrow(TypeError);
  });

  it("takes pre-parsed raw pairs as they are, lower-casing names and leaving pseudo-headers out", () => {
    const headers = HttpHeaders.fromRawPairs([":path", "/x", "Content-Type", "application/json", "X-A", "1", "x-a", "2"]);
    expect([...headers]).toEqual([
      ["content-type", "application/json"],
      ["x-a", "1, 2"],
    ]);
    const cookies = HttpHeaders.fromRawPairs(["X-B", "1", "Set-Cookie", "a=1", "set-cookie", "b=2", "a", "0"]);
    expect(HttpHeaders.fieldList(cookies)).toEqual(["a", "0", "set-cookie", "a=1", "set-cookie", "b=2", "x-b", "1"]);
  });

  it("answers lookups on raw pairs in place, as the copied fields would", () => {
    const raw = [":path", "/x", "Content-Type", "application/json", "X-A", "1", "x-a", "2", "Set-Cookie", "a=1", "set-cookie", "b=2"];
    const headers = HttpHeaders.fromRawPairs(raw);
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("CONTENT-TYPE")).toBe("application/json");
    expect(headers.get("x-a")).toBe("1, 2");
    expect(headers.get(":path")).toBeNull();
    expect(headers.get("accept")).toBeNull();
    expect(headers.has("X-A")).toBe(true);
    expect(headers.has("x-b")).toBe(false);
    expect(headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    // Changes apply to the copied fields; the raw list is left alone.
    headers.set("x-a", "3");
    headers.delete("content-type");
    expect([...headers]).toEqual([
      ["set-cookie", "a=1"],
      ["set-cookie", "b=2"],
      ["x-a", "3"],
    ]);
    expect(raw).toHaveLength(12);
  });

  it("answers lookups from a stack's parsed object as the raw pairs would, cookies and prototype names included", () => {
    const raw = [
      "Content-Type",
      "application/json",
      "X-A",
      "1",
      "x-a",
      "2",
      "Set-Cookie",
      "a=1",
      "set-cookie",
      "b=2",
      "Cookie",
      "k=1",
      "cookie",
      "j=2",
      "Constructor",
      "c",
    ];
    // As Node parses them with `joinDuplicateHeaders: true`: cookies joined with "; ", set-cookie as a list.
    const parsed = { "content-type": "application/json", "x-a": "1, 2", "set-cookie": ["a=1", "b=2"], cookie: "k=1; j=2", constructor: "c" };
    const headers = HttpHeaders.fromParsed(parsed, raw);
    const names = ["content-type", "Content-Type", "x-a", "X-A", "set-cookie", "cookie", "COOKIE", "constructor", "toString", "__proto__", "accept", "Accept"];
    const fromRaw = HttpHeaders.fromRawPairs(raw);
    for (const name of names) expect([name, headers.get(name)]).toEqual([name, fromRaw.get(name)]);
    for (const name of names) expect([name, headers.has(name)]).toEqual([name, fromRaw.has(name)]);
    expect(headers.get("cookie")).toBe("k=1, j=2");
    expect(headers.get("toString")).toBeNull();
    // Changes apply to copied fields, not to the parsed object.
    headers.set("x-a", "3");
    expect(headers.get("x-a")).toBe("3");
    expect(parsed["x-a"]).toBe("1, 2");
    expect(headers.getSetCookie()).toEqual(["a=1", "b=2"]);
  });

  it("keeps iteration sorted after later additions", () => {
    const headers = new HttpHeaders({ b: "1" });
    expect([...headers.keys()]).toEqual(["b"]);
    headers.set("a", "2");
    expect([...headers.keys()]).toEqual(["a", "b"]);
    expect(Object.prototype.toString.call(headers)).toBe("[object Headers]");
  });
});
