/**
 * Codec settings, normalized once into frozen values and a short cache key.
 */
import type { TimestampFormat } from "@anvil/core";

/** How a protocol wants JSON read and written. */
export interface JsonSettings {
  /**
   * Use `@jsonName` as the wire name of members that have it. restJson1 and
   * simpleRestJson: `true`; awsJson1_0/1_1: `false`. Default `false`.
   */
  readonly useJsonName?: boolean;
  /** Format of timestamps whose member and shape have no `@timestampFormat`. Default `"epoch-seconds"`. */
  readonly timestampFormat?: TimestampFormat;
  /**
   * Honour `@alloy#discriminated`, `@alloy#untagged`, `@alloy#jsonUnknown` and
   * `@alloy#nullable` (simpleRestJson). Default `false`.
   */
  readonly alloyTraits?: boolean;
  /** Deepest nesting of arrays and objects accepted or written. Default 128. */
  readonly maxDepth?: number;
  /**
   * Read as a server reads requests: date-times must be UTC (`Z`, no
   * offset), base64 must be padded, and an unknown union member is an error
   * rather than an unknown variant. Clients keep the default `false` and
   * accept what servers may send.
   */
  readonly strict?: boolean;
}

/** Settings with every field decided. */
export interface ResolvedSettings {
  readonly useJsonName: boolean;
  readonly timestampFormat: TimestampFormat;
  readonly alloyTraits: boolean;
  readonly maxDepth: number;
  readonly strict: boolean;
  /** Identifies these settings in compile caches. */
  readonly key: string;
}

const DEFAULTS: ResolvedSettings = Object.freeze({
  useJsonName: false,
  timestampFormat: "epoch-seconds",
  alloyTraits: false,
  maxDepth: 128,
  strict: false,
  key: "0e00128",
});

const resolved = new Map<string, ResolvedSettings>([[DEFAULTS.key, DEFAULTS]]);

/** Merges partial settings with the defaults; equal settings give the same object. */
export function resolveSettings(settings: JsonSettings | undefined): ResolvedSettings {
  if (settings === undefined) return DEFAULTS;
  const useJsonName = settings.useJsonName ?? DEFAULTS.useJsonName;
  const timestampFormat = settings.timestampFormat ?? DEFAULTS.timestampFormat;
  const alloyTraits = settings.alloyTraits ?? DEFAULTS.alloyTraits;
  const depth = settings.maxDepth ?? DEFAULTS.maxDepth;
  const maxDepth = Number.isFinite(depth) && depth >= 1 ? Math.floor(depth) : DEFAULTS.maxDepth;
  const strict = settings.strict ?? DEFAULTS.strict;
  const key = `${useJsonName ? 1 : 0}${timestampFormat[0]}${alloyTraits ? 1 : 0}${strict ? 1 : 0}${maxDepth}`;
  let found = resolved.get(key);
  if (found === undefined) {
    found = Object.freeze({ useJsonName, timestampFormat, alloyTraits, maxDepth, strict, key });
    resolved.set(key, found);
  }
  return found;
}
