/** Settings shared by the CBOR reader and writer. */
export interface CborSettings {
  /** Deepest nesting of arrays and maps accepted on read and written on write. Default 128. */
  readonly maxDepth?: number;
}

/** @internal The defaults, merged in one place. */
export const DEFAULT_SETTINGS: Readonly<Required<CborSettings>> = Object.freeze({ maxDepth: 128 });

/** @internal */
export function resolveSettings(settings: CborSettings | undefined): Required<CborSettings> {
  const maxDepth = settings?.maxDepth ?? DEFAULT_SETTINGS.maxDepth;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new RangeError(`CborSettings.maxDepth must be a positive integer, got ${maxDepth}`);
  return { maxDepth };
}
