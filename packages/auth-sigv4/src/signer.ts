/**
 * SigV4 header signing of the requests a client sends (`AWS4-HMAC-SHA256`
 * in `Authorization`), computed here in one pass over the request: byte for
 * byte the headers `@smithy/signature-v4`'s `sign` makes of the same request
 * (a differential test holds the two equal), without its copies of the
 * request, its regular expressions over every header, or the HMAC of the
 * credentials it computes on every request to look its signing key up; and,
 * where `node:crypto` is there, without a promise per hash. Presigning and
 * event streams stay with `@smithy/signature-v4`.
 */
import { HttpHeaders, type HttpRequest } from "@anvil/core";
import { sortFieldPairs } from "@anvil/core/protocol";
import { platformHashes, type SyncHashes, toHex } from "./sha256.js";

/** The signing algorithm. */
export const ALGORITHM = "AWS4-HMAC-SHA256";
/** The SHA-256 of nothing: the payload hash of a request without a body. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const PAYLOAD_HASH = "x-amz-content-sha256";
/** The payload hash of a body that is not signed. */
const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

/**
 * Headers never signed, as `@smithy/signature-v4` (and the AWS SDKs) leave
 * them out: hop-by-hop fields, and fields proxies and browsers change.
 * Fields named `proxy-*` and `sec-*` too.
 */
const UNSIGNABLE: ReadonlySet<string> = new Set([
  "authorization",
  "cache-control",
  "connection",
  "expect",
  "from",
  "keep-alive",
  "max-forwards",
  "pragma",
  "referer",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "user-agent",
  "x-amzn-trace-id",
]);

/** The request's own fields the signer writes anew, and drops when it has them. */
const GENERATED: ReadonlySet<string> = new Set(["authorization", "x-amz-date", "date"]);

/** The credentials a request is signed with. */
export interface SigningCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Settings of {@link requestSigner}. */
export interface RequestSignerOptions {
  readonly region: string;
  /** Whether to send `x-amz-content-sha256`. */
  readonly applyChecksum: boolean;
  /** Whether the path is normalized and escaped once more for the canonical request (every service but S3). */
  readonly uriEscapePath: boolean;
  /** The synchronous hashes to use; default the platform's. `null`: WebCrypto's, as where there are none (for tests). */
  readonly hashes?: SyncHashes | null;
}

/** Signs requests' headers for one region; keeps its derived signing keys. */
export interface RequestSigner {
  /**
   * The headers to send: the request's, less `host` and any `authorization`,
   * `x-amz-date` or `date` of its own, plus `x-amz-date`,
   * `x-amz-security-token` (temporary credentials), `x-amz-content-sha256`
   * (with `applyChecksum`, or `payloadHash` given) and `authorization`.
   * Synchronous where the platform hashes synchronously (`node:crypto`).
   *
   * @param host - The `host` signed (a `host` header of the request's own wins).
   * @param payloadHash - The payload hash of a body that streams (`UNSIGNED-PAYLOAD`, ...), sent as `x-amz-content-sha256`; else the body's own.
   */
  sign(
    request: HttpRequest,
    host: string,
    service: string,
    date: Date,
    credentials: SigningCredentials,
    payloadHash: string | undefined,
  ): HttpHeaders | Promise<HttpHeaders>;
}

/** What a request signs, once its strings are made: everything but the signature. */
interface Signable {
  /** The output's fields, flat: `[name, value, ...]`. */
  readonly fields: string[];
  /** The canonical request. */
  readonly canonical: string;
  /** The `SignedHeaders` list. */
  readonly signedHeaders: string;
  readonly longDate: string;
  readonly shortDate: string;
  readonly scope: string;
}

/** A signing key, derived once a day per credentials, region and service. */
interface SigningKey {
  readonly shortDate: string;
  readonly service: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly key: Uint8Array;
}

/** How many signing keys a signer keeps (a client signs for one service, rarely more). */
const KEYS_KEPT = 4;

/** A request signer: see {@link RequestSigner}. */
export function requestSigner(options: RequestSignerOptions): RequestSigner {
  const { region, applyChecksum, uriEscapePath } = options;
  const hashes = options.hashes === undefined ? platformHashes() : (options.hashes ?? undefined);
  const keys: SigningKey[] = [];
  // The canonical path of the last path signed: a client's requests mostly go to a few paths (awsJson: all to one).
  let lastPath = "";
  let lastCanonicalPath = uriEscapePath ? canonicalPath("") : "";

  const keyFor = (credentials: SigningCredentials, shortDate: string, service: string): Uint8Array | undefined => {
    for (const k of keys) {
      if (k.shortDate === shortDate && k.service === service && k.accessKeyId === credentials.accessKeyId && k.secretAccessKey === credentials.secretAccessKey)
        return k.key;
    }
    return undefined;
  };
  const keep = (key: SigningKey): Uint8Array => {
    keys.unshift(key);
    if (keys.length > KEYS_KEPT) keys.pop();
    return key.key;
  };

  const prepare = (
    request: HttpRequest,
    host: string,
    service: string,
    date: Date,
    credentials: SigningCredentials,
    streamedHash: string | undefined,
    payloadHash: string,
  ): Signable => {
    const longDate = longDateOf(date);
    const shortDate = longDate.slice(0, 8);
    const scope = `${shortDate}/${region}/${service}/aws4_request`;
    const fields: string[] = [];
    let hostValue = host;
    let hasPayloadHash = false;
    request.headers.forEach((value, name) => {
      if (name === "host") hostValue = value;
      else if (!GENERATED.has(name)) {
        if (name === PAYLOAD_HASH) hasPayloadHash = true;
        put(fields, name, value);
      }
    });
    put(fields, "x-amz-date", longDate);
    if (credentials.sessionToken) put(fields, "x-amz-security-token", credentials.sessionToken);
    if (streamedHash !== undefined) put(fields, PAYLOAD_HASH, streamedHash);
    else if (applyChecksum && !hasPayloadHash) put(fields, PAYLOAD_HASH, payloadHash);
    sortFieldPairs(fields);

    // The canonical headers: the fields in name order, host among them.
    let canonicalHeaders = "";
    let signedHeaders = "";
    let hostDone = false;
    for (let i = 0; i <= fields.length; i += 2) {
      const name = i < fields.length ? fields[i]! : undefined;
      if (!hostDone && (name === undefined || name > "host")) {
        hostDone = true;
        canonicalHeaders += `host:${canonicalValue(hostValue)}\n`;
        signedHeaders += signedHeaders === "" ? "host" : ";host";
      }
      if (name === undefined) break;
      if (UNSIGNABLE.has(name) || name.startsWith("proxy-") || name.startsWith("sec-")) continue;
      canonicalHeaders += `${name}:${canonicalValue(fields[i + 1]!)}\n`;
      signedHeaders += signedHeaders === "" ? name : `;${name}`;
    }

    let path = request.path;
    if (uriEscapePath) {
      if (path !== lastPath) {
        lastCanonicalPath = canonicalPath(path);
        lastPath = path;
      }
      path = lastCanonicalPath;
    }
    const canonical = `${request.method}\n${path}\n${canonicalQuery(request.query)}\n${canonicalHeaders}\n${signedHeaders}\n${payloadHash}`;
    return { fields, canonical, signedHeaders, longDate, shortDate, scope };
  };

  const finish = (s: Signable, credentials: SigningCredentials, signature: string): HttpHeaders => {
    s.fields.push("authorization", `${ALGORITHM} Credential=${credentials.accessKeyId}/${s.scope}, SignedHeaders=${s.signedHeaders}, Signature=${signature}`);
    // Fields of a Headers and values made here: checked already, so taken as they are.
    return HttpHeaders.fromRawPairs(s.fields);
  };

  const signSync = (s: Signable, credentials: SigningCredentials, service: string, sync: SyncHashes): HttpHeaders => {
    const stringToSign = `${ALGORITHM}\n${s.longDate}\n${s.scope}\n${sync.sha256Hex(s.canonical)}`;
    let key = keyFor(credentials, s.shortDate, service);
    if (key === undefined) {
      let k = sync.hmac(`AWS4${credentials.secretAccessKey}`, s.shortDate);
      for (const part of [region, service, "aws4_request"]) k = sync.hmac(k, part);
      key = keep({ shortDate: s.shortDate, service, accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, key: k });
    }
    return finish(s, credentials, sync.hmacHex(key, stringToSign));
  };

  const signAsync = async (
    request: HttpRequest,
    host: string,
    service: string,
    date: Date,
    credentials: SigningCredentials,
    streamedHash: string | undefined,
  ): Promise<HttpHeaders> => {
    const body = request.body;
    const payloadHash = knownPayloadHash(request, streamedHash) ?? (await subtleSha256Hex(body as Uint8Array | string));
    const s = prepare(request, host, service, date, credentials, streamedHash, payloadHash);
    const stringToSign = `${ALGORITHM}\n${s.longDate}\n${s.scope}\n${await subtleSha256Hex(s.canonical)}`;
    let key = keyFor(credentials, s.shortDate, service);
    if (key === undefined) {
      let k = await subtleHmac(`AWS4${credentials.secretAccessKey}`, s.shortDate);
      for (const part of [region, service, "aws4_request"]) k = await subtleHmac(k, part);
      key = keep({ shortDate: s.shortDate, service, accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, key: k });
    }
    return finish(s, credentials, toHex(await subtleHmac(key, stringToSign)));
  };

  return Object.freeze({
    sign(request, host, service, date, credentials, streamedHash) {
      validateCredentials(credentials);
      if (hashes === undefined) return signAsync(request, host, service, date, credentials, streamedHash);
      const payloadHash = knownPayloadHash(request, streamedHash) ?? hashes.sha256Hex(request.body as Uint8Array | string);
      return signSync(prepare(request, host, service, date, credentials, streamedHash, payloadHash), credentials, service, hashes);
    },
  } satisfies RequestSigner);
}

/**
 * The payload hash when it takes no hashing: a streamed body's, the
 * request's own `x-amz-content-sha256`, the empty body's, or
 * `UNSIGNED-PAYLOAD` for a body that is neither bytes nor text; undefined
 * when the body is to be hashed.
 */
function knownPayloadHash(request: HttpRequest, streamedHash: string | undefined): string | undefined {
  if (streamedHash !== undefined) return streamedHash;
  const own = request.headers.get(PAYLOAD_HASH);
  if (own !== null) return own;
  const body = request.body;
  if (body === undefined) return EMPTY_SHA256;
  return body instanceof Uint8Array || typeof body === "string" ? undefined : UNSIGNED_PAYLOAD;
}

/** Sets a field in a flat `[name, value, ...]` list: a name already there takes the new value (as a record's key would). */
function put(fields: string[], name: string, value: string): void {
  for (let i = 0; i < fields.length; i += 2) {
    if (fields[i] === name) {
      fields[i + 1] = value;
      return;
    }
  }
  fields.push(name, value);
}

/** The credentials a provider resolved, checked as `@smithy/signature-v4` checks them. */
function validateCredentials(credentials: SigningCredentials): void {
  if (
    typeof credentials !== "object" ||
    credentials === null ||
    typeof credentials.accessKeyId !== "string" ||
    typeof credentials.secretAccessKey !== "string"
  ) {
    throw new Error("Resolved credential object is not valid");
  }
}

/** The last second formatted, and its `x-amz-date`: calls in the same second share it. */
let lastSecond = Number.NaN;
let lastLongDate = "";

/** `20150830T123600Z`. An invalid date throws a RangeError (from `toISOString`). */
function longDateOf(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond) {
    lastLongDate = date
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z")
      .replace(/[-:]/g, "");
    lastSecond = second;
  }
  return lastLongDate;
}

/** RFC 3986 percent-encoding, as SigV4 escapes: everything but the unreserved characters. */
function escapeUri(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A header value as the canonical request has it: line breaks as spaces, runs of spaces and tabs as one space, no space at either end. */
function canonicalValue(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d || (c === 0x20 && (i === 0 || i === value.length - 1 || value.charCodeAt(i + 1) === 0x20))) {
      return value
        .replace(/[\r\n]/g, " ")
        .replace(/[ \t]+/g, " ")
        .replace(/^ | $/g, "");
    }
  }
  return value;
}

/** The path normalized (empty and `.` segments dropped, `..` taking the one before off) and escaped once more, slashes kept. */
function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const normalized = `${path.startsWith("/") ? "/" : ""}${segments.join("/")}${segments.length > 0 && path.endsWith("/") ? "/" : ""}`;
  return escapeUri(normalized).replace(/%2F/g, "/");
}

/** The canonical query: each pair escaped, sorted by name, a name's values sorted; `X-Amz-Signature` left out. */
function canonicalQuery(query: HttpRequest["query"]): string {
  if (query.length === 0) return "";
  const pairs: string[][] = [];
  const names: string[] = [];
  for (const [name, value] of query) {
    if (name.length === 15 && name.toLowerCase() === "x-amz-signature") continue;
    const key = escapeUri(name);
    const pair = `${key}=${escapeUri(value)}`;
    const at = names.indexOf(key);
    if (at < 0) {
      names.push(key);
      pairs.push([pair]);
    } else pairs[at]!.push(pair);
  }
  const order = names.map((_, i) => i).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  let out = "";
  for (const i of order) {
    const group = pairs[i]!;
    if (group.length > 1) group.sort();
    for (const pair of group) out += out === "" ? pair : `&${pair}`;
  }
  return out;
}

const encoder = new TextEncoder();

async function subtleSha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
}

async function subtleHmac(key: string | Uint8Array, data: string): Promise<Uint8Array> {
  const raw = typeof key === "string" ? encoder.encode(key) : key;
  const imported = await crypto.subtle.importKey("raw", raw as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(data)));
}
