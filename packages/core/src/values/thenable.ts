/**
 * Whether a value is a promise (or another thenable) to wait for, rather
 * than the value itself: for paths that answer synchronously when they can
 * and await only when they must.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  if (value instanceof Promise) return true;
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
  return typeof (value as { then?: unknown }).then === "function";
}
