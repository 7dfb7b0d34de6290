/**
 * Verifying AWS Signature Version 4 on a server: a `ServerAuthScheme` for
 * `aws.auth#sigv4` that `@anvil/server` takes in its `auth.schemes`. The
 * signature is computed again with `@smithy/signature-v4` (no crypto of our
 * own) from the request as received and the secret of its access key, and
 * compared in constant time. Header-signed requests and presigned URLs
 * (query) are accepted; the payload hash is checked against the body.
 */
import type { AuthCall, HttpRequest, ServerAuthScheme, ServiceSchema } from "@anvil/core";
import type { SignatureV4 } from "@smithy/signature-v4";
import { sameText, STREAMING_EVENTS, verifyEventStream } from "./event-signing.js";
import { sha256Hex, smithySha256 } from "./sha256.js";
import { loadSignatureV4 } from "./sigv4.js";

/** Settings of {@link sigv4Verifier}. `Id` is the identity handlers get for a verified caller. */
export interface SigV4VerifierOptions<Id = { readonly accessKeyId: string }> {
  /**
   * The secret access key of an access key id; undefined for a key the
   * server does not know (the caller gets the same 401 as for a wrong
   * signature).
   */
  readonly secretOf: (accessKeyId: string, call: AuthCall) => string | undefined | Promise<string | undefined>;
  /** The identity of a verified caller. Default `{ accessKeyId }`. */
  readonly identify?: (accessKeyId: string) => Id;
  /** The region requests must be signed for. Default: any (the region of the credential scope is used). */
  readonly region?: string;
  /** The signing name requests must be signed for. Default the `name` of the service's `@aws.auth#sigv4` trait. */
  readonly signingName?: string;
  /** How far the request's signing time may be from the server's clock, in milliseconds. Default 15 minutes, as AWS allows. */
  readonly clockSkewMs?: number;
  /** Whether the path was escaped once more for the canonical request (every service but S3). Default true. */
  readonly uriEscapePath?: boolean;
  /** The server's clock; tests fix it. Default now. */
  readonly now?: () => Date;
}

const SIGV4 = "aws.auth#sigv4";
const ALGORITHM = "AWS4-HMAC-SHA256";
const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** The longest a presigned URL may be valid for, as AWS allows: 7 days. */
const MAX_EXPIRES_SECONDS = 7 * 24 * 60 * 60;
const PAYLOAD_HASH = "x-amz-content-sha256";
const HEX_HASH = /^[0-9a-f]{64}$/;

type SmithyRequest = Parameters<SignatureV4["sign"]>[0] & { headers: Record<string, string> };

/** What a request says about its signature, from its Authorization header or its query. */
interface Claimed {
  readonly presigned: boolean;
  readonly accessKeyId: string;
  readonly date: string;
  readonly region: string;
  readonly service: string;
  readonly signedHeaders: readonly string[];
  readonly signature: string;
  /** The signing time. */
  readonly at: Date;
  /** A presigned URL's validity, in seconds. */
  readonly expires?: number;
}

/**
 * The server side of `aws.auth#sigv4`: give it to `createServer`'s
 * `auth: { schemes: [sigv4Verifier({ secretOf })] }`. A call is let in when
 * its signature (the `Authorization` header, or a presigned URL's
 * `X-Amz-Signature`) is the one its access key's secret makes over the
 * request as received; its signing time within `clockSkewMs` of the server's
 * clock (a presigned URL: not expired); its credential scope naming the
 * region (when set) and the service's signing name; and its
 * `x-amz-content-sha256`, when it is a hash, the body's. `UNSIGNED-PAYLOAD`
 * is accepted as the payload hash. A signed event stream
 * (`STREAMING-AWS4-HMAC-SHA256-EVENTS`) is checked message by message as the
 * handler reads it: each envelope's signature must continue the chain from
 * the request's, its `:date` within `clockSkewMs`; a message that breaks
 * it fails the stream with a 401 `UnauthenticatedException`.
 */
export function sigv4Verifier<Id = { readonly accessKeyId: string }>(options: SigV4VerifierOptions<Id>): ServerAuthScheme<Id> {
  const skew = options.clockSkewMs ?? FIFTEEN_MINUTES;
  const identify = options.identify ?? ((accessKeyId: string) => ({ accessKeyId }) as Id);
  return Object.freeze({
    id: SIGV4,
    needsBody: true,
    carries(request: HttpRequest): boolean {
      const authorization = request.headers.get("authorization");
      if (authorization !== null) return authorization.startsWith(`${ALGORITHM} `);
      return request.query.some(([name]) => name === "X-Amz-Signature");
    },
    async verify(request: HttpRequest, body: Uint8Array | undefined, call: AuthCall): Promise<Id | undefined> {
      const claimed = claimedSignature(request);
      if (claimed === undefined) return undefined;
      const now = (options.now?.() ?? new Date()).getTime();
      const at = claimed.at.getTime();
      if (claimed.presigned ? at - skew > now || now > at + claimed.expires! * 1000 : Math.abs(now - at) > skew) return undefined;
      if (options.region !== undefined && claimed.region !== options.region) return undefined;
      if (claimed.service !== (options.signingName ?? signingNameOf(call.service))) return undefined;
      const payload = await payloadOf(request, body);
      if (payload === undefined) return undefined;
      const secret = await options.secretOf(claimed.accessKeyId, call);
      if (secret === undefined) return undefined;
      const signer = await signerOf(claimed, secret, options.uriEscapePath ?? true);
      const expected = await signatureOf(request, claimed, payload, signer);
      if (expected === undefined || !sameText(expected, claimed.signature)) return undefined;
      if (payload === STREAMING_EVENTS) {
        // The events are signed one by one: checked as the protocol reads them, chained to this signature.
        if (call.replaceBody === undefined || request.body === undefined) return undefined;
        call.replaceBody(verifyEventStream(request.body, signer, claimed.signature, skew, () => options.now?.() ?? new Date()));
      }
      return identify(claimed.accessKeyId);
    },
    challenge(): string {
      return ALGORITHM;
    },
  });
}

/** The signature a request claims, or undefined when it is not well formed. */
function claimedSignature(request: HttpRequest): Claimed | undefined {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    if (!authorization.startsWith(`${ALGORITHM} `)) return undefined;
    const fields = new Map<string, string>();
    for (const part of authorization.slice(ALGORITHM.length + 1).split(",")) {
      const eq = part.indexOf("=");
      if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    return claim(false, fields.get("Credential"), request.headers.get("x-amz-date"), fields.get("SignedHeaders"), fields.get("Signature"), undefined);
  }
  const query = new Map(request.query);
  if (query.get("X-Amz-Algorithm") !== ALGORITHM) return undefined;
  const expires = query.get("X-Amz-Expires");
  return claim(true, query.get("X-Amz-Credential"), query.get("X-Amz-Date") ?? null, query.get("X-Amz-SignedHeaders"), query.get("X-Amz-Signature"), expires);
}

function claim(
  presigned: boolean,
  credential: string | undefined,
  date: string | null,
  signedHeaders: string | undefined,
  signature: string | undefined,
  expires: string | undefined,
): Claimed | undefined {
  if (credential === undefined || date === null || signedHeaders === undefined || signature === undefined) return undefined;
  const scope = credential.split("/");
  if (scope.length !== 5 || scope[4] !== "aws4_request" || scope[0] === "") return undefined;
  const [accessKeyId, day, region, service] = scope as [string, string, string, string];
  const at = parseAmzDate(date);
  if (at === undefined || date.slice(0, 8) !== day || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
  const headers = signedHeaders.split(";");
  // The authority is always signed (as host, or as :authority by the AWS SDK on HTTP/2); a list without it, or out of order, was not made by a signer.
  if (
    !(headers.includes("host") || headers.includes(":authority")) ||
    headers.some((h, i) => h === "" || h !== h.toLowerCase() || (i > 0 && headers[i - 1]! >= h))
  )
    return undefined;
  let seconds: number | undefined;
  if (presigned) {
    seconds = Number(expires);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_EXPIRES_SECONDS) return undefined;
  }
  return { presigned, accessKeyId, date, region, service, signedHeaders: headers, signature, at, ...(seconds !== undefined ? { expires: seconds } : {}) };
}

/** `20150830T123600Z` as a Date. */
function parseAmzDate(text: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (m === null) return undefined;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * The payload hash the signature covers: the `x-amz-content-sha256` the
 * request sends (checked against the body when it is a hash), else the
 * body's own hash; undefined when it cannot be checked (a hash over a body
 * that streams) or does not match.
 */
async function payloadOf(request: HttpRequest, body: Uint8Array | undefined): Promise<string | undefined> {
  const streams = body === undefined && request.body !== undefined && !(request.body instanceof Uint8Array) && typeof request.body !== "string";
  const bytes =
    body ?? (request.body instanceof Uint8Array ? request.body : typeof request.body === "string" ? new TextEncoder().encode(request.body) : new Uint8Array());
  const declared = request.headers.get(PAYLOAD_HASH);
  if (declared !== null && !HEX_HASH.test(declared)) return declared === "UNSIGNED-PAYLOAD" || declared.startsWith("STREAMING-") ? declared : undefined;
  if (streams) return undefined;
  const actual = await sha256Hex(bytes);
  return declared === null || sameText(declared, actual) ? actual : undefined;
}

/** A signer with the claimed scope and the access key's secret. */
async function signerOf(claimed: Claimed, secret: string, uriEscapePath: boolean): Promise<SignatureV4> {
  const Signer = await loadSignatureV4();
  return new Signer({
    service: claimed.service,
    region: claimed.region,
    credentials: { accessKeyId: claimed.accessKeyId, secretAccessKey: secret },
    sha256: smithySha256(),
    applyChecksum: false,
    uriEscapePath,
  });
}

/** The signature `@smithy/signature-v4` makes for the request as received, with the claimed scope, time and signed headers. */
async function signatureOf(request: HttpRequest, claimed: Claimed, payload: string, signer: SignatureV4): Promise<string | undefined> {
  const headers: Record<string, string> = {};
  for (const name of claimed.signedHeaders) {
    const value = name === "host" || name === ":authority" ? (request.headers.get("host") ?? request.host ?? null) : request.headers.get(name);
    // A header the signature covers is missing: it was taken off (or the signer and this server see different requests).
    if (value === null) return undefined;
    headers[name] = value;
  }
  headers[PAYLOAD_HASH] = payload;
  const signableHeaders = new Set(claimed.signedHeaders);
  // The signer adds these itself (the payload hash it is told, the signing time): signed only where the client signed them.
  const unsignableHeaders = new Set([PAYLOAD_HASH, "x-amz-date"].filter((name) => !signableHeaders.has(name)));
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of request.query) {
    if (claimed.presigned && name === "X-Amz-Signature") continue;
    const existing = query[name];
    query[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  const hostname = headers.host ?? headers[":authority"]!;
  const unsigned: SmithyRequest = { method: request.method, protocol: "https:", hostname, path: request.path, query, headers };
  if (claimed.presigned) {
    const presigned = await signer.presign(unsigned, {
      signingDate: claimed.at,
      expiresIn: claimed.expires!,
      signableHeaders,
      unsignableHeaders,
      unhoistableHeaders: new Set(Object.keys(headers)),
    });
    const signature = presigned.query?.["X-Amz-Signature"];
    return typeof signature === "string" ? signature : undefined;
  }
  const signed = (await signer.sign(unsigned, {
    signingDate: claimed.at,
    signableHeaders,
    unsignableHeaders,
  })) as SmithyRequest;
  return /Signature=([0-9a-f]{64})/.exec(signed.headers.authorization ?? "")?.[1];
}

function signingNameOf(service: ServiceSchema): string | undefined {
  const trait = service.traits[SIGV4] as { name?: unknown } | undefined;
  return typeof trait?.name === "string" ? trait.name : undefined;
}
