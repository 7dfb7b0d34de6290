import type { StructSchema } from "@anvil/core";
/** Schemas shared by the tests (not part of the package's exports). */
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

export const Scalars = struct("test#Scalars", [
  member("trueBooleanValue", boolean),
  member("falseBooleanValue", boolean),
  member("byteValue", byte),
  member("doubleValue", double),
  member("floatValue", float),
  member("integerValue", integer),
  member("longValue", long),
  member("shortValue", short),
  member("stringValue", string),
  member("blobValue", blob),
]);

export const Color = enumeration("test#Color", [
  { name: "RED", value: "red" },
  { name: "BLUE", value: "blue" },
]);
export const Level = intEnum("test#Level", [
  { name: "LOW", value: 1 },
  { name: "HIGH", value: 2 },
]);

export const Nested = union("test#Nested", [member("stringValue", string)]);
export const Choice = union("test#Choice", [member("stringValue", string), member("unionValue", Nested), member("numberValue", integer)]);

export const Everything = struct("test#Everything", [
  member("bool", boolean),
  member("str", string),
  member("bytes", blob),
  member("i8", byte),
  member("i16", short),
  member("i32", integer),
  member("i64", long),
  member("big", bigInteger),
  member("f32", float),
  member("f64", double),
  member("dec", bigDecimal),
  member("time", timestamp),
  member("doc", document),
  member("color", Color),
  member("level", Level),
  member("strings", list("test#Strings", member("member", string))),
  member("sparseStrings", list("test#SparseStrings", member("member", string), { sparse: true })),
  member("times", list("test#Times", member("member", timestamp))),
  member("counts", map("test#Counts", member("key", string), member("value", integer))),
  member("sparseCounts", map("test#SparseCounts", member("key", string), member("value", integer), { sparse: true })),
  member("choice", Choice),
]);

export const Defaults = struct("test#Defaults", [
  member("name", string, { default: "anon" }),
  member("size", integer, { default: 7 }),
  member("tags", list("test#Tags", member("member", string)), { default: [] }),
  member("plain", string),
]);

export interface Tree {
  value?: number;
  children?: Tree[];
}
export const TreeSchema: StructSchema<Tree> = struct<Tree>("test#Tree", [
  member("value", integer),
  member("children", () =>
    list(
      "test#Trees",
      member("member", () => TreeSchema),
    ),
  ),
]);
