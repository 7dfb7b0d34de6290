/**
 * A `Headers` for the request/response hot path. It behaves like the
 * standard class (names case-insensitive, repeated fields joined with ", ",
 * `set-cookie` kept apart, iteration sorted by name, values trimmed and
 * checked) and is accepted wherever `Headers` is, but costs a fraction of
 * undici's implementation: one flat list of fields and no WebIDL conversions. Adapters
 * fill it from fields the HTTP stack already parsed with {@link HttpHeaders.fromRawPairs},
 * which skips the checks that stack made.
 */

/** Header fields an HTTP stack parsed into an object by lower-case name (Node's `IncomingHttpHeaders`). */
export type ParsedFields = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A field name: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Characters a field value may not hold once trimmed: NUL, CR, LF, and anything past U+00FF (not a byte, as the standard class says). */
const FORBIDDEN_IN_VALUE = /[\0\r\n\u0100-\uffff]/;

/**
 * What the standard `Headers` constructor takes, from whichever declaration
 * of `Headers` the program has: the DOM library's `HeadersInit`, or Node's
 * own (`@types/node`) in a program compiled without the DOM library.
 */
export type HeadersSource = NonNullable<ConstructorParameters<typeof Headers>[0]>;

/** Header fields, case-insensitive, in the shape of the standard `Headers` class. */
export class HttpHeaders implements Headers {
  /**
   * `[name, value, name, value, ...]`: lower-case names, each once, with
   * its combined value; in insertion order, sorted in place when iteration
   * needs it (fields usually arrive in order). Answers carry a handful of
   * fields, which a list finds faster than a `Map` does (no hashing), and
   * costs less to make.
   */
  readonly #fields: string[] = [];
  /** Each `set-cookie` field on its own (the combined value is in #fields too). */
  #cookies: string[] | undefined;
  #sorted = true;
  /**
   * Fields as an HTTP stack parsed them (see {@link HttpHeaders.fromRawPairs}),
   * not yet copied into the list: `get` and `has` read them in place, which
   * costs less than copying when a request is asked for a few fields only,
   * as it usually is; anything else copies them first.
   */
  #raw: readonly string[] | undefined;
  /** The same fields as the HTTP stack also parsed them into an object by lower-case name, repeats joined (see {@link HttpHeaders.fromParsed}). */
  #parsed: ParsedFields | undefined;

  /** Copies `init` like `new Headers(init)`: another Headers, `[name, value]` pairs, or a record. */
  constructor(init?: HeadersSource) {
    if (init === undefined) return;
    if (Array.isArray(init)) {
      for (const pair of init) {
        if (pair.length !== 2) throw new TypeError("HttpHeaders: each header pair must have a name and a value");
        this.append(pair[0]!, pair[1]!);
      }
    } else if (isIterable(init)) {
      for (const [name, value] of init) this.append(name, value);
    } else {
      for (const name of Object.keys(init)) this.append(name, (init as Record<string, string>)[name]!);
    }
  }

  /**
   * Headers from a flat `[name, value, name, value, ...]` list an HTTP
   * stack already parsed and checked (Node's `rawHeaders`): names are only
   * lower-cased, values taken as they are; pseudo-headers (`:path`) are left out.
   */
  static fromRawPairs(raw: readonly string[]): HttpHeaders {
    const headers = new HttpHeaders();
    if (raw.length > 0) headers.#raw = raw;
    return headers;
  }

  /**
   * Like {@link HttpHeaders.fromRawPairs}, with the object the HTTP stack
   * also parsed the fields into (Node's `req.headers` from a server made
   * with `joinDuplicateHeaders: true`: lower-case names, repeated fields
   * joined with ", ", `set-cookie` as a list): lookups then cost one
   * property read. It must hold exactly the fields of `raw`.
   */
  static fromParsed(parsed: ParsedFields, raw: readonly string[]): HttpHeaders {
    const headers = HttpHeaders.fromRawPairs(raw);
    if (headers.#raw !== undefined) headers.#parsed = parsed;
    return headers;
  }

  /**
   * The fields of any `Headers` as a new flat `[name, value, name, value, ...]`
   * list (what Node's `writeHead` takes without making an object of it),
   * sorted by name as iteration is, each `set-cookie` a field of its own.
   * For an `HttpHeaders` this is a copy of its list: no callback per field.
   */
  static fieldList(headers: Headers): string[] {
    if (!(headers instanceof HttpHeaders)) {
      const out: string[] = [];
      headers.forEach((value, name) => out.push(name, value));
      return out;
    }
    headers.#own();
    const fields = headers.#sortedFields();
    const cookies = headers.#cookies;
    if (cookies === undefined) return fields.slice();
    const out: string[] = [];
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i]!;
      if (name !== "set-cookie") out.push(name, fields[i + 1]!);
      else for (const cookie of cookies) out.push(name, cookie);
    }
    return out;
  }

  /** Copies the raw fields into the list, once, before anything but a lookup. */
  #own(): void {
    const raw = this.#raw;
    if (raw === undefined) return;
    this.#raw = undefined;
    this.#parsed = undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.charCodeAt(0) !== 58 /* ":" */) this.#add(lowerCase(name), raw[i + 1]!);
    }
  }

  /** Adds a value to a field, after any it has (`get` joins them with ", "). Throws TypeError for an invalid name or value. */
  append(name: string, value: string): void {
    this.#own();
    this.#add(checkedName(name), checkedValue(value));
  }

  /** Replaces every value of a field with this one. Throws TypeError for an invalid name or value. */
  set(name: string, value: string): void {
    this.#own();
    const key = checkedName(name);
    const normalized = checkedValue(value);
    const at = this.#find(key);
    if (at < 0) this.#push(key, normalized);
    else this.#fields[at + 1] = normalized;
    if (key === "set-cookie") this.#cookies = [normalized];
  }

  /** A field's value by name in any case, repeated fields joined with ", "; null when absent. */
  get(name: string): string | null {
    if (this.#parsed !== undefined) return this.#parsedField(name);
    if (this.#raw !== undefined) return rawField(this.#raw, lowerCase(name));
    const at = this.#find(name);
    return at < 0 ? null : this.#fields[at + 1]!;
  }

  /** Whether a field is present, by name in any case. */
  has(name: string): boolean {
    if (this.#parsed !== undefined) return this.#parsedField(name) !== null;
    if (this.#raw !== undefined) return rawField(this.#raw, lowerCase(name)) !== null;
    return this.#find(name) >= 0;
  }

  /** Removes a field and all its values, by name in any case. */
  delete(name: string): void {
    this.#own();
    const at = this.#find(name);
    if (at < 0) return;
    if (this.#fields[at] === "set-cookie") this.#cookies = undefined;
    this.#fields.splice(at, 2);
  }

  /** The value of each `set-cookie` field on its own, in the order added; empty when there is none. */
  getSetCookie(): string[] {
    this.#own();
    return this.#cookies === undefined ? [] : [...this.#cookies];
  }

  /** Calls `callback` with each value, its lower-case name and these headers, in the order of {@link HttpHeaders.entries}. */
  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#own();
    // A plain loop, not the entries generator: adapters call this on every answer.
    const fields = this.#sortedFields();
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i]!;
      if (name === "set-cookie" && this.#cookies !== undefined) {
        for (const cookie of this.#cookies) callback.call(thisArg, cookie, name, this);
      } else {
        callback.call(thisArg, fields[i + 1]!, name, this);
      }
    }
  }

  /** `[name, value]` pairs sorted by lower-case name, repeated fields joined with ", ", except `set-cookie`: one pair per field. */
  *entries(): IterableIterator<[string, string]> {
    this.#own();
    const fields = this.#sortedFields();
    for (let i = 0; i < fields.length; i += 2) {
      const name = fields[i]!;
      if (name === "set-cookie" && this.#cookies !== undefined) {
        for (const cookie of this.#cookies) yield [name, cookie];
      } else {
        yield [name, fields[i + 1]!];
      }
    }
  }

  /** The lower-case names, in the order of {@link HttpHeaders.entries}. */
  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  /** The values, in the order of {@link HttpHeaders.entries}. */
  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  /** The pairs of {@link HttpHeaders.entries}, so that `for (const [name, value] of headers)` works. */
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  /** `"Headers"`, as the standard class answers: `Object.prototype.toString` gives `[object Headers]`. */
  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  /** A field from the parsed object; a name given in lower case (as it usually is) is read as it is. */
  #parsedField(name: string): string | null {
    const parsed = this.#parsed!;
    let key = name;
    let value = parsed[key];
    if (value === undefined) {
      key = lowerCase(name);
      if (key === name) return null;
      value = parsed[key];
      if (value === undefined) return null;
    }
    if (typeof value === "string" && key !== "cookie") return value;
    if (Array.isArray(value)) return value.join(", ");
    // `cookie` (which Node joins with "; "), and names the object's prototype answers (`constructor`): from the raw fields.
    return rawField(this.#raw!, key);
  }

  /** The index of a field's name in #fields, or -1; the name in any case. */
  #find(name: string): number {
    const fields = this.#fields;
    let key: string | undefined;
    for (let i = 0; i < fields.length; i += 2) {
      const field = fields[i]!;
      // Lengths first: most names differ there, and lower-casing is a call.
      if (field.length === name.length && (field === name || field === (key ??= lowerCase(name)))) return i;
    }
    return -1;
  }

  #add(key: string, value: string): void {
    const at = this.#find(key);
    if (at < 0) this.#push(key, value);
    else this.#fields[at + 1] = `${this.#fields[at + 1]!}, ${value}`;
    if (key === "set-cookie") (this.#cookies ??= []).push(value);
  }

  #push(key: string, value: string): void {
    const fields = this.#fields;
    if (this.#sorted && fields.length > 0 && key < fields[fields.length - 2]!) this.#sorted = false;
    fields.push(key, value);
  }

  #sortedFields(): readonly string[] {
    if (!this.#sorted) {
      sortFieldPairs(this.#fields);
      this.#sorted = true;
    }
    return this.#fields;
  }
}

/**
 * Sorts a flat `[name, value, name, value, ...]` list in place by name, in
 * code-unit order (as `Array#sort`), keeping each value with its name and
 * fields of the same name in their order. An insertion sort: header lists
 * are a handful of names, nearly in order, and sort faster by hand than
 * through `Array#sort` on pairs. `HttpHeaders` iterates in this order; a
 * signer canonicalizing headers (SigV4) sorts its own list with it.
 */
export function sortFieldPairs(fields: string[]): void {
  for (let i = 2; i < fields.length; i += 2) {
    const name = fields[i]!;
    const value = fields[i + 1]!;
    let j = i;
    while (j > 0 && fields[j - 2]! > name) {
      fields[j] = fields[j - 2]!;
      fields[j + 1] = fields[j - 1]!;
      j -= 2;
    }
    fields[j] = name;
    fields[j + 1] = value;
  }
}

/**
 * A field of raw `[name, value, ...]` pairs by its lower-case name, repeated
 * fields joined with ", " as `get` joins them; null when absent.
 * Pseudo-headers (`:path`) are not fields.
 */
function rawField(raw: readonly string[], key: string): string | null {
  if (key.charCodeAt(0) === 58 /* ":" */) return null;
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Lengths and first letters (either case) first: most names differ there, and lower-casing is a call.
    if (name.length !== key.length || (name.charCodeAt(0) | 0x20) !== (key.charCodeAt(0) | 0x20)) continue;
    if (name !== key && lowerCase(name) !== key) continue;
    value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

/** A name in lower case; the name itself when it is already (as lookups by literal names are), without a call. */
function lowerCase(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return name.toLowerCase();
  }
  return name;
}

/** Another `Headers` (ours or the standard class): its entries, `set-cookie` fields one by one. */
function isIterable(init: HeadersSource): init is HeadersSource & Iterable<[string, string]> {
  return typeof (init as Partial<Iterable<unknown>>)[Symbol.iterator] === "function";
}

/** Names already checked, as given → lower case: a server sets the same few names on every answer. */
const checkedNames = new Map<string, string>();
const MAX_CHECKED_NAMES = 512;

function checkedName(name: string): string {
  const known = checkedNames.get(name);
  if (known !== undefined) return known;
  if (!TOKEN.test(name)) throw new TypeError(`HttpHeaders: "${name}" is not a valid header name`);
  const lower = name.toLowerCase();
  if (checkedNames.size < MAX_CHECKED_NAMES) checkedNames.set(name, lower);
  return lower;
}

/** The last value that passed {@link checkedValue} unchanged: answers set the same few values (a content type) over and over. */
let lastChecked = "";

/** Trims HTTP whitespace (the standard class does) and refuses NUL, CR and LF. */
function checkedValue(given: string): string {
  if (given === lastChecked) return given;
  const value = typeof given === "string" ? given : String(given);
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  const trimmed = start === 0 && end === value.length ? value : value.slice(start, end);
  if (trimmed.length <= 64 ? hasForbiddenChar(trimmed) : FORBIDDEN_IN_VALUE.test(trimmed)) {
    const at = trimmed.search(FORBIDDEN_IN_VALUE);
    const code = trimmed.charCodeAt(at);
    throw new TypeError(
      code > 0xff
        ? `HttpHeaders: a header value holds only characters up to U+00FF; U+${code.toString(16).toUpperCase().padStart(4, "0")} at index ${at} must be encoded first (e.g. percent-encoded or base64)`
        : `HttpHeaders: the value of a header may not contain NUL, CR or LF`,
    );
  }
  if (trimmed === given) lastChecked = trimmed;
  return trimmed;
}

/** {@link FORBIDDEN_IN_VALUE} by hand: cheaper than a regex call for the short values most headers hold. */
function hasForbiddenChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || c === 0x0a || c === 0x0d || c > 0xff) return true;
  }
  return false;
}

function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
