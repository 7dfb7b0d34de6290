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
   * Ignore `@timestampFormat` traits: every timestamp uses
   * {@link JsonSettings.timestampFormat} (rpcv2Json). Default `false`.
   */
  readonly ignoreTimestampFormat?: boolean;
  /**
   * Write `bigInteger` and `bigDecimal` values as JSON strings, so no reader
   * rounds them (rpcv2Json), and read them from strings (numbers are still
   * accepted). Default `false`: JSON numbers.
   */
  readonly bigNumbersAsStrings?: boolean;
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
  readonly ignoreTimestampFormat: boolean;
  readonly bigNumbersAsStrings: boolean;
  readonly alloyTraits: boolean;
  readonly maxDepth: number;
  readonly strict: boolean;
  /** Identifies these settings in compile caches. */
  readonly key: string;
}

const DEFAULTS: ResolvedSettings = Object.freeze({
  useJsonName: false,
  timestampFormat: "epoch-seconds",
  ignoreTimestampFormat: false,
  bigNumbersAsStrings: false,
  alloyTraits: false,
  maxDepth: 128,
  strict: false,
  key: "0e0000128",
});

const resolved = new Map<string, ResolvedSettings>([[DEFAULTS.key, DEFAULTS]]);
/** Settings objects already resolved: hot paths pass the same (readonly) object on every call. */
const bySettingsObject = new WeakMap<JsonSettings, ResolvedSettings>();

/**
 * Merges partial settings with the defaults; equal settings give the same
 * object. A settings object is read once (settings are readonly): later
 * calls with the same object return the first answer without re-reading it.
 */
export function resolveSettings(settings: JsonSettings | undefined): ResolvedSettings {
  if (settings === undefined) return DEFAULTS;
  const known = bySettingsObject.get(settings);
  if (known !== undefined) return known;
  const useJsonName = settings.useJsonName ?? DEFAULTS.useJsonName;
  const timestampFormat = settings.timestampFormat ?? DEFAULTS.timestampFormat;
  const ignoreTimestampFormat = settings.ignoreTimestampFormat ?? DEFAULTS.ignoreTimestampFormat;
  const bigNumbersAsStrings = settings.bigNumbersAsStrings ?? DEFAULTS.bigNumbersAsStrings;
  const alloyTraits = settings.alloyTraits ?? DEFAULTS.alloyTraits;
  const depth = settings.maxDepth ?? DEFAULTS.maxDepth;
  const maxDepth = Number.isFinite(depth) && depth >= 1 ? Math.floor(depth) : DEFAULTS.maxDepth;
  const strict = settings.strict ?? DEFAULTS.strict;
  const key = `${useJsonName ? 1 : 0}${timestampFormat[0]}${ignoreTimestampFormat ? 1 : 0}${bigNumbersAsStrings ? 1 : 0}${alloyTraits ? 1 : 0}${strict ? 1 : 0}${maxDepth}`;
  let found = resolved.get(key);
  if (found === undefined) {
    found = Object.freeze({ useJsonName, timestampFormat, ignoreTimestampFormat, bigNumbersAsStrings, alloyTraits, maxDepth, strict, key });
    resolved.set(key, found);
  }
  bySettingsObject.set(settings, found);
  return found;
}
