import { describe, expect, it } from "vitest";
import { operationKey } from "./operation-key.js";

describe("operationKey", () => {
  const keys = (names: string[]): string[] => {
    const taken = new Set<string>();
    return names.map((name) => {
      const key = operationKey(`ex#${name}`, name, (k) => taken.has(k));
      taken.add(key);
      return key;
    });
  };

  it("lower-cases the first character, as clients name methods", () => {
    expect(keys(["GetForecast", "RPCEcho", "ping"])).toEqual(["getForecast", "rPCEcho", "ping"]);
  });

  it("prefixes names JavaScript gives a meaning to: then, constructor, __proto__", () => {
    expect(keys(["Then", "Constructor", "__proto__", "ToString"])).toEqual(["_then", "_constructor", "___proto__", "toString"]);
  });

  it("falls back to the shape name, then the shape id, when the key is taken", () => {
    expect(keys(["getThing", "GetThing", "Then", "then"])).toEqual(["getThing", "GetThing", "_then", "ex#then"]);
    expect(keys(["GetThing", "getThing"])).toEqual(["getThing", "ex#getThing"]);
  });
});
