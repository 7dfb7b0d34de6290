/**
 * Sets a key of a plain object as data: a key `__proto__` (which a plain
 * assignment would turn into a prototype change) becomes an own property.
 * Readers of untrusted maps and documents use it for every key.
 */
export function setDataKey<T>(target: { [key: string]: T }, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
