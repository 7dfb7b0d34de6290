/**
 * Method names an operation cannot have as they are: a `then` makes the
 * client a thenable (awaiting it, or returning it from an async function,
 * would call the operation), `constructor` is a class's constructor (a
 * handler or fake class could not implement the operation), and
 * `__proto__` sets an object literal's prototype.
 */
const UNSAFE_METHODS: ReadonlySet<string> = new Set(["then", "constructor", "__proto__"]);

/**
 * An operation's key in its service's `operations`: the client and handler
 * method name. The shape name with its first character lower-cased
 * (`GetForecast` → `getForecast`), prefixed with `_` when that name is
 * unsafe (`Then` → `_then`); when another operation of the service has
 * the key already, the shape name as it is, else the shape id. Generated
 * code (`anvil generate`) and {@link schemasFromModel} key operations alike.
 *
 * @example
 * ```ts
 * const keys = new Set<string>();
 * const key = operationKey("example.weather#GetForecast", "GetForecast", (k) => keys.has(k)); // "getForecast"
 * ```
 */
export function operationKey(id: string, name: string, taken: (key: string) => boolean): string {
  let key = name.charAt(0).toLowerCase() + name.slice(1);
  if (UNSAFE_METHODS.has(key)) key = `_${key}`;
  if (!taken(key)) return key;
  return taken(name) || UNSAFE_METHODS.has(name) ? id : name;
}
