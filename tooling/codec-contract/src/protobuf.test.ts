/**
 * Differential tests of Anvil's protobuf codec against protobufjs, loaded
 * from the `.proto` that `emitProto` writes for the same model: random values
 * of the schema go both ways (Anvil bytes → protobufjs, protobufjs bytes →
 * Anvil) and must come out equal; random and mutated bytes never crash the
 * Anvil reader. The protobufjs side is converted by a walker written from the
 * mapping table in packages/protocol-grpc/README.md, independently of the codec.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BigDecimal, SerializationError } from "@anvil/core";
import type { Document, MemberSchema, Schema, StructSchema, Traits } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { loadModel } from "@anvil/model";
import { emitProto } from "@anvil/protocol-grpc";
import { compileProtobufReader, compileProtobufWriter } from "@anvil/protocol-grpc/protobuf";
import fc from "fast-check";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { arbitraryFor, firstDifference, normalizeInteger } from "./arbitrary.js";

const MODEL = fileURLToPath(new URL("../../../packages/protocol-grpc/fixtures/kitchen.smithy", import.meta.url));
const { model, events } = loadModel({ sources: [{ file: MODEL, text: readFileSync(MODEL, "utf8") }] });
const modelErrors = events.filter((e) => e.severity === "ERROR" || e.severity === "DANGER");
if (modelErrors.length > 0) throw new Error(modelErrors.map((e) => e.message).join("\n"));
const schemas = schemasFromModel(model);
const service = schemas.service("anvil.grpctest#Kitchen");
const Everything = schemas.shape("anvil.grpctest#Everything") as StructSchema;

const proto = emitProto(service);
const dir = mkdtempSync(join(tmpdir(), "anvil-pbjs-"));
const load = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  const root = protobuf.loadSync(file);
  (root as unknown as { options?: object }).options ??= {};
  root.resolveAll();
  return root.lookupType("anvil.grpctest.Everything");
};
const PbEverything = load("kitchen.proto", proto);
// the same file with every packable repeated field unpacked: protobufjs then writes one tag per element
const PbUnpacked = load(
  "unpacked.proto",
  proto
    .replace(/(repeated (?:u?int|sint|s?fixed)(?:32|64) \w+ = \d+);/g, "$1 [packed = false];")
    .replace(/(repeated (?:bool|float|double|Color|Level) \w+ = \d+);/g, "$1 [packed = false];"),
);

const readAnvil = compileProtobufReader(Everything);
const writeAnvil = compileProtobufWriter(Everything);
const TO_OBJECT = { longs: String, enums: String, bytes: Uint8Array, defaults: false, oneofs: false } as const;

// ---- the mapping, seen from protobufjs objects ----

type Position = "field" | "element" | "mapValue" | "variant";

const isCollection = (s: Schema) => s.kind === "list" || s.kind === "map";
const wrappedAt = (s: Schema, t: Traits, p: Position) => t.protoWrapped === true || (isCollection(s) && p !== "field");
const unwrap = (t: Traits): Traits => ({ ...t, protoWrapped: false });
const own = (o: object, k: string) => Object.hasOwn(o, k);

/** The proto3 zero value of a field, as the codec fills absent required members. */
function zeroOf(s: Schema): unknown {
  switch (s.kind) {
    case "boolean":
      return false;
    case "string":
      return "";
    case "blob":
      return new Uint8Array(0);
    case "bigDecimal":
      return BigDecimal.from("0");
    case "timestamp":
      return new Date(0);
    case "document":
      return null;
    case "list":
      return [];
    case "map":
      return {};
    case "enum":
    case "intEnum":
      return s.values[0]!.value;
    case "structure":
      return {};
    default:
      return 0;
  }
}

/** A protobufjs `toObject` value → Anvil's value model. */
function fromPb(s: Schema, t: Traits, p: Position, v: unknown): unknown {
  if (wrappedAt(s, t, p)) return own(v as object, "value") ? fromPb(s, unwrap(t), "field", (v as { value: unknown }).value) : zeroOf(s);
  switch (s.kind) {
    case "long":
    case "bigInteger":
      return normalizeInteger(BigInt(v as string));
    case "bigDecimal":
      return BigDecimal.from(v as string);
    case "blob":
      return new Uint8Array(v as Uint8Array);
    case "timestamp": {
      const format = t.custom?.["alloy.proto#protoTimestampFormat"];
      if (format === "EPOCH_MILLIS") return new Date(Number(v));
      if (format === "RFC3339_STRING") return new Date(v as string);
      const ts = v as { seconds?: string; nanos?: number };
      return new Date(Number(ts.seconds ?? 0) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6));
    }
    case "document":
      return docFromPb(v as Record<string, unknown>);
    case "enum":
    case "intEnum":
      return s.traits.openEnum ? v : s.values.find((e) => e.name === v)!.value;
    case "list": {
      const m = s.member;
      return (v as unknown[]).map((e) => (s.traits.sparse ? sparseFromPb(m, e) : fromPb(m.target, m.traits, "element", e)));
    }
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(v as object))
        out[k] = s.traits.sparse ? sparseFromPb(s.value, e) : fromPb(s.value.target, s.value.traits, "mapValue", e);
      return out;
    }
    case "structure": {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const m of s.members) {
        if (m.target.kind === "union" && m.target.traits.protoInlinedOneOf) {
          for (const variant of m.target.members)
            if (own(o, variant.name)) out[m.name] = { $case: variant.name, value: fromPb(variant.target, variant.traits, "variant", o[variant.name]) };
        } else if (own(o, m.name)) out[m.name] = fromPb(m.target, m.traits, "field", o[m.name]);
        else if (m.traits.required) out[m.name] = zeroOf(m.target);
      }
      return out;
    }
    case "union": {
      const o = v as Record<string, unknown>;
      const variant = s.members.find((m) => own(o, m.name))!;
      return { $case: variant.name, value: fromPb(variant.target, variant.traits, "variant", o[variant.name]) };
    }
    default:
      return v;
  }
}

function sparseFromPb(m: MemberSchema, v: unknown): unknown {
  return own(v as object, "value") ? fromPb(m.target, unwrap(m.traits), "field", (v as { value: unknown }).value) : null;
}

function docFromPb(v: Record<string, unknown>): Document {
  if (own(v, "numberValue")) return v.numberValue as number;
  if (own(v, "stringValue")) return v.stringValue as string;
  if (own(v, "boolValue")) return v.boolValue as boolean;
  if (own(v, "structValue")) {
    const out: Record<string, Document> = {};
    for (const [k, e] of Object.entries(((v.structValue as { fields?: object }).fields ?? {}) as Record<string, Record<string, unknown>>))
      out[k] = docFromPb(e);
    return out;
  }
  if (own(v, "listValue")) return (((v.listValue as { values?: unknown[] }).values ?? []) as Record<string, unknown>[]).map(docFromPb);
  return null;
}

/** An Anvil value → a protobufjs `fromObject` value. */
function toPb(s: Schema, t: Traits, p: Position, v: unknown): unknown {
  if (wrappedAt(s, t, p)) return { value: toPb(s, unwrap(t), "field", v) };
  switch (s.kind) {
    case "long":
    case "bigInteger":
    case "bigDecimal":
      return String(v);
    case "timestamp": {
      const ms = (v as Date).getTime();
      const format = t.custom?.["alloy.proto#protoTimestampFormat"];
      if (format === "EPOCH_MILLIS") return String(ms);
      if (format === "RFC3339_STRING") return (v as Date).toISOString();
      const seconds = Math.floor(ms / 1000);
      const nanos = (ms - seconds * 1000) * 1e6;
      // zero fields left out, as proto3 encoders do
      return { ...(seconds !== 0 ? { seconds: String(seconds) } : {}), ...(nanos !== 0 ? { nanos } : {}) };
    }
    case "document":
      return docToPb(v as Document);
    case "enum":
    case "intEnum":
      return s.traits.openEnum ? v : s.values.find((e) => e.value === v)!.name;
    case "list":
      return (v as unknown[]).map((e) =>
        s.traits.sparse
          ? e === null
            ? {}
            : { value: toPb(s.member.target, unwrap(s.member.traits), "field", e) }
          : toPb(s.member.target, s.member.traits, "element", e),
      );
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(v as object)) {
        out[k] = s.traits.sparse
          ? e === null
            ? {}
            : { value: toPb(s.value.target, unwrap(s.value.traits), "field", e) }
          : toPb(s.value.target, s.value.traits, "mapValue", e);
      }
      return out;
    }
    case "structure": {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const m of s.members) {
        const x = o[m.name];
        if (x === undefined || x === null) continue;
        if (m.target.kind === "union" && m.target.traits.protoInlinedOneOf) {
          const u = x as { $case: string; value: unknown };
          const variant = m.target.members.find((e) => e.name === u.$case)!;
          out[u.$case] = toPb(variant.target, variant.traits, "variant", u.value);
        } else out[m.name] = toPb(m.target, m.traits, "field", x);
      }
      return out;
    }
    case "union": {
      const u = v as { $case: string; value: unknown };
      const variant = s.members.find((e) => e.name === u.$case)!;
      return { [u.$case]: toPb(variant.target, variant.traits, "variant", u.value) };
    }
    default:
      return v;
  }
}

function docToPb(v: Document): unknown {
  if (v === null) return { nullValue: "NULL_VALUE" };
  if (typeof v === "number" || typeof v === "bigint") return { numberValue: Number(v) };
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(docToPb) } };
  const fields: Record<string, unknown> = {};
  for (const [k, e] of Object.entries(v)) fields[k] = docToPb(e);
  return { structValue: { fields } };
}

/**
 * What survives proto3: strings become well-formed UTF-16 (lone surrogates
 * are U+FFFD in UTF-8), document numbers are doubles, an empty optional list
 * or map is absent, and unsigned fields hold non-negative numbers.
 */
function expected(s: Schema, t: Traits, v: unknown): unknown {
  if (v === null || v === undefined) return v;
  switch (s.kind) {
    case "string":
      return wellFormed(v as string);
    case "enum":
      return s.traits.openEnum ? wellFormed(v as string) : v;
    case "document":
      return docExpected(v as Document);
    case "integer":
    case "long":
      if (t.protoNumType === "UNSIGNED" || t.protoNumType === "FIXED") return typeof v === "bigint" ? (v < 0n ? -v : v) : Math.abs(v as number);
      return v;
    case "list":
      return (v as unknown[]).map((e) => expected(s.member.target, s.member.traits, e));
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(v as object)) out[wellFormed(k)] = expected(s.value.target, s.value.traits, e);
      return out;
    }
    case "structure": {
      const out: Record<string, unknown> = {};
      for (const m of s.members) {
        const x = (v as Record<string, unknown>)[m.name];
        if (x === undefined || x === null) continue;
        if (!m.traits.required && !m.traits.protoWrapped && leftOut(m.target, m.traits, x)) continue;
        out[m.name] = expected(m.target, m.traits, x);
      }
      return out;
    }
    case "union": {
      const u = v as { $case: string; value: unknown };
      const variant = s.members.find((e) => e.name === u.$case)!;
      return { $case: u.$case, value: expected(variant.target, variant.traits, u.value) };
    }
    default:
      return v;
  }
}

/** Whether proto3 leaves a singular field out: implicit presence and a zero value, or an empty repeated field or map. */
function leftOut(s: Schema, t: Traits, v: unknown): boolean {
  switch (s.kind) {
    case "timestamp":
      return t.custom?.["alloy.proto#protoTimestampFormat"] === "EPOCH_MILLIS" && (v as Date).getTime() === 0;
    case "list":
    case "map":
      return Object.keys(v as object).length === 0;
    case "boolean":
      return v === false;
    case "string":
      return v === "";
    case "blob":
      return (v as Uint8Array).length === 0;
    case "byte":
    case "short":
    case "integer":
    case "long":
    case "float":
    case "double":
      return (v === 0 && !Object.is(v, -0)) || v === 0n;
    case "enum":
      return s.traits.openEnum ? v === "" : s.values[0]!.value === v;
    case "intEnum":
      return v === 0;
    default:
      return false;
  }
}

/** A string as UTF-8 carries it: lone surrogates become U+FFFD. */
const wellFormed = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s));

function docExpected(v: Document): Document {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "string") return wellFormed(v);
  if (Array.isArray(v)) return v.map(docExpected);
  if (v !== null && typeof v === "object") {
    const out: Record<string, Document> = {};
    for (const [k, e] of Object.entries(v)) out[wellFormed(k)] = docExpected(e);
    return out;
  }
  return v;
}

/** `__proto__` keys: protobufjs stores map entries by assignment, which loses them (a protobufjs limitation). */
function hasProtoKey(v: unknown): boolean {
  if (v === null || typeof v !== "object" || v instanceof Uint8Array || v instanceof Date || BigDecimal.is(v)) return false;
  if (Array.isArray(v)) return v.some(hasProtoKey);
  return Object.keys(v).some((k) => k === "__proto__" || hasProtoKey((v as Record<string, unknown>)[k]));
}

const values = arbitraryFor(Everything, { maxDepth: 4, maxLength: 4 })
  .filter((v) => !hasProtoKey(v))
  .map((v) => expected(Everything, Everything.traits, v) as Record<string, unknown>);
const RUNS = { numRuns: 300 };

const same = (a: unknown, b: unknown) => {
  const d = firstDifference(a, b);
  if (d) throw new Error(d);
};

describe("S9, F2: protobuf codec vs protobufjs (emitted .proto)", () => {
  it("protobufjs decodes Anvil's bytes to the value", () => {
    fc.assert(
      fc.property(values, (v) => {
        const decoded = PbEverything.toObject(PbEverything.decode(writeAnvil(v)), TO_OBJECT);
        same(fromPb(Everything, Everything.traits, "field", decoded), v);
      }),
      RUNS,
    );
  });

  it("Anvil decodes protobufjs's bytes (packed) to the value", () => {
    fc.assert(
      fc.property(values, (v) => {
        const bytes = PbEverything.encode(PbEverything.fromObject(toPb(Everything, Everything.traits, "field", v) as object)).finish();
        same(readAnvil(bytes), v);
      }),
      RUNS,
    );
  });

  it("the unpacked variant really writes one tag per element", () => {
    const bytes = PbUnpacked.encode(PbUnpacked.fromObject({ ints: [1, 2], required: "x" })).finish();
    expect([...bytes.subarray(0, 6)]).toEqual([0x98, 0x01, 0x01, 0x98, 0x01, 0x02]);
    expect(readAnvil(bytes)).toEqual({ ints: [1, 2], required: "x" });
  });

  it("Anvil decodes protobufjs's bytes (unpacked) to the value", () => {
    fc.assert(
      fc.property(values, (v) => {
        const bytes = PbUnpacked.encode(PbUnpacked.fromObject(toPb(Everything, Everything.traits, "field", v) as object)).finish();
        same(readAnvil(bytes), v);
      }),
      RUNS,
    );
  });

  it("Anvil writes what protobufjs writes, byte for byte", () => {
    // the fixture's members are in field number order, which is protobufjs's order; maps iterate in insertion order in both
    fc.assert(
      fc.property(values, (v) => {
        const pb = PbEverything.encode(PbEverything.fromObject(toPb(Everything, Everything.traits, "field", v) as object)).finish();
        expect(Buffer.from(writeAnvil(v)).equals(Buffer.from(pb))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("random and mutated bytes never crash the reader", () => {
    const check = (bytes: Uint8Array) => {
      try {
        readAnvil(bytes);
      } catch (error) {
        if (!SerializationError.is(error)) throw error;
      }
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => check(bytes)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(values, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(), (v, edits, cut) => {
        const bytes = writeAnvil(v);
        if (bytes.length === 0) return;
        for (const [at, byte] of edits) bytes[at % bytes.length] = byte;
        check(bytes);
        check(bytes.subarray(0, cut % (bytes.length + 1)));
      }),
      { numRuns: 1000 },
    );
  });
});
