/**
 * Hand-built schemas shared by the tests.
 */
import {
  bigDecimal,
  bigInteger,
  blob,
  boolean,
  byte,
  document,
  double,
  enumeration,
  float,
  intEnum,
  integer,
  list,
  long,
  map,
  member,
  short,
  string,
  struct,
  timestamp,
  union,
} from "@anvil/core/codegenv1";
import type { StructSchema, UnionSchema } from "@anvil/core";

export const Color = enumeration("test#Color", [
  { name: "RED", value: "red" },
  { name: "GREEN", value: "green" },
]);
export const Level = intEnum("test#Level", [
  { name: "LOW", value: 1 },
  { name: "HIGH", value: 2 },
]);
export const Strings = list("test#Strings", member("member", string));
export const SparseStrings = list("test#SparseStrings", member("member", string), { sparse: true });
export const StringMap = map("test#StringMap", member("key", string), member("value", string));
export const SparseMap = map("test#SparseMap", member("key", string), member("value", integer), { sparse: true });

/** One member of every scalar kind, plus collections. */
export const Everything = struct("test#Everything", [
  member("str", string),
  member("bool", boolean),
  member("b", byte),
  member("s", short),
  member("i", integer),
  member("l", long),
  member("f", float),
  member("d", double),
  member("bi", bigInteger),
  member("bd", bigDecimal),
  member("blob", blob),
  member("ts", timestamp),
  member("doc", document),
  member("color", Color),
  member("level", Level),
  member("list", Strings),
  member("sparse", SparseStrings),
  member("map", StringMap),
  member("sparseMap", SparseMap),
]);

export const Shape: UnionSchema = union("test#Shape", [
  member("circle", struct("test#Circle", [member("radius", double)])),
  member("name", string),
  member("nothing", struct("smithy.api#Unit", [])),
]);

/** A recursive structure: a tree of nodes. */
export const Node: StructSchema = struct("test#Node", [
  member("value", integer),
  member("children", () =>
    list(
      "test#Nodes",
      member("member", () => Node),
    ),
  ),
  member("next", () => Node),
]);

export const Named = struct("test#Named", [
  member("firstName", string, { jsonName: "first_name" }),
  member("age", integer),
  member("when", timestamp, { jsonName: "at" }),
]);

export const WithDefaults = struct("test#WithDefaults", [
  member("count", integer, { default: 7 }),
  member("tags", Strings, { default: [] }),
  member("labels", StringMap, { default: {} }),
  member("plain", string),
]);
