/**
 * Code that only some operations need (event streams, MD5), loaded on first
 * use so that a bundle of a client without them leaves it in a chunk of its
 * own, never fetched.
 *
 * @internal
 */

/** A module loaded once, on first use. */
export interface LazyModule<T> {
  /** The module once it has loaded: callers use it at once rather than awaiting a promise per call. */
  readonly current: T | undefined;
  /** Loads the module (once; a failed load is tried again on the next call). */
  load(): Promise<T>;
}

/** A module that `importer` (a literal `import("...")`, so that bundlers split it off) loads when first needed. */
export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined;
  // A plain property, not a getter: it is read on every call of an operation that needs the module.
  const lazy: { current: T | undefined; load(): Promise<T> } = {
    current: undefined,
    load() {
      loading ??= importer().then(
        (module) => (lazy.current = module),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
  return lazy;
}
