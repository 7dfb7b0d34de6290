/**
 * AWS Signature Version 4 (`aws.auth#sigv4`, SPEC §6). Requests are signed
 * by `signer.ts`; presigned URLs and the messages of signed event streams
 * by `@smithy/signature-v4`, imported when first needed. Credentials come
 * from the caller or, by default, from the standard AWS chain
 * (`@aws-sdk/credential-provider-node`: env, shared files, SSO, web
 * identity, ECS/EC2 metadata), imported when a request is first signed
 * without credentials given: a client given credentials never loads it.
 */
import { AnvilError, type AuthScheme, type HttpRequest, type HttpResponse, type Provider, type SigningContext } from "@anvil/core";
import { isThenable } from "@anvil/core/protocol";
import type { SignatureV4, SignatureV4Init } from "@smithy/signature-v4";
import { signEventStream, STREAMING_EVENTS } from "./event-signing.js";
import { smithySha256 } from "./sha256.js";
import { requestSigner, type SigningCredentials } from "./signer.js";

/** AWS credentials. */
export interface AwsCredentials {
  /** The access key id, e.g. `AKIAIOSFODNN7EXAMPLE`; it is sent in the `Authorization` header. */
  readonly accessKeyId: string;
  /** The secret access key that signs requests; it is never sent. */
  readonly secretAccessKey: string;
  /** The session token of temporary credentials, sent as `x-amz-security-token`; absent for long-term keys. */
  readonly sessionToken?: string;
  /** When temporary credentials stop working; providers refresh before it. */
  readonly expiration?: Date;
}

/** Settings of {@link sigv4}. */
export interface SigV4Options {
  /** The region requests are signed for, e.g. `us-east-1`. */
  readonly region: string;
  /** The signing name; default the `name` of the service's `@aws.auth#sigv4` trait. */
  readonly signingName?: string;
  /** Credentials or a provider of them; default the standard AWS chain. */
  readonly credentials?: Provider<AwsCredentials>;
  /**
   * Whether to send `x-amz-content-sha256` (required by S3 and Glacier,
   * accepted by the rest). Default true.
   */
  readonly applyChecksum?: boolean;
  /** Whether to escape the path once more for the canonical request (every service but S3). Default true. */
  readonly uriEscapePath?: boolean;
  /**
   * The local clock; tests fix it. Default now. Requests are signed at its
   * time plus the offset learnt from a server that said the clock is off
   * (see {@link SigV4Scheme.recoverFrom}).
   */
  readonly now?: () => Date;
}

/** Settings of one {@link SigV4Scheme.presign} call. */
export interface SigV4PresignOptions {
  /** Where the URL points: its scheme and host (the request's `host`, when set, wins). */
  readonly endpoint: URL | string;
  /**
   * How long the URL is valid, in seconds: a whole number from 1 to
   * 604 800 (7 days, the most AWS accepts). Default 3600.
   */
  readonly expiresIn?: number;
  /** The signing name; default the scheme's `signingName`, one of which is needed. */
  readonly signingName?: string;
}

/** The SigV4 auth scheme {@link sigv4} makes: an `AuthScheme` that also presigns URLs. */
export interface SigV4Scheme extends AuthScheme {
  /**
   * Presigns a request: resolves with its URL carrying the signature in the
   * query (`X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`,
   * `X-Amz-Expires`, `X-Amz-SignedHeaders`, `X-Amz-Signature`, and
   * `X-Amz-Security-Token` for temporary credentials), valid for
   * `expiresIn` seconds from the signing time. The request's `x-amz-*`
   * headers move into the query; its other headers stay headers and are
   * signed, so whoever uses the URL must send them. The payload hash is
   * the request's `x-amz-content-sha256` header when it has one (S3 wants
   * `UNSIGNED-PAYLOAD`), which then stays out of the URL and the signed
   * headers; else the body's hash (none: the empty body's). The path is used as it is, so it is not
   * normalized by a `URL` on the way. Rejects with a `RangeError`, before
   * anything is signed, when `expiresIn` is not a whole number of seconds
   * from 1 to 604 800.
   */
  presign(request: HttpRequest, options: SigV4PresignOptions): Promise<string>;
  /**
   * Corrects the scheme's clock after a refusal that names a skewed clock:
   * when the error's code is one of AWS's clock-skew codes
   * (`RequestTimeTooSkewed`, `RequestExpired`, `RequestInTheFuture`,
   * `InvalidSignatureException`, `SignatureDoesNotMatch`, `AuthFailure`) and
   * the answer's `Date` (not a cached answer's: no `Age`) is 4 minutes or
   * more from the time the scheme signs at, later signatures use the
   * server's time (the offset between its `Date` and the local clock) and
   * this returns true, so the client signs the request again once. Else
   * false, and nothing changes: a signature refused for another reason is
   * not retried.
   */
  recoverFrom(error: unknown, response: HttpResponse | undefined): boolean;
}

const SIGV4 = "aws.auth#sigv4";
/** The longest a presigned URL may be valid for, in seconds: 7 days, as AWS allows. */
const MAX_EXPIRES_IN = 7 * 24 * 60 * 60;
/** The header that gives a presigned request's payload hash, as a set for the signer's options. */
const PAYLOAD_HASH_ONLY: Set<string> = new Set(["x-amz-content-sha256"]);
/** The error codes of AWS services that may mean the signing clock is off (the AWS SDKs' list). */
const CLOCK_SKEW_CODES: ReadonlySet<string> = new Set([
  "AuthFailure",
  "InvalidSignatureException",
  "RequestExpired",
  "RequestInTheFuture",
  "RequestTimeTooSkewed",
  "SignatureDoesNotMatch",
]);
/** How far the server's clock must be from the signing time for a skew error to be blamed on the clock (as the AWS SDK for JavaScript). */
const SKEW_THRESHOLD_MS = 4 * 60 * 1000;

type CredentialProvider = () => Promise<AwsCredentials>;

let defaultChain: Promise<CredentialProvider> | undefined;
let signerClass: Promise<typeof SignatureV4> | undefined;

/** `@smithy/signature-v4`'s signer, imported when first needed (a presigned URL, an event stream, a verifier) and shared. */
export function loadSignatureV4(): Promise<typeof SignatureV4> {
  signerClass ??= import("@smithy/signature-v4").then((m) => m.SignatureV4);
  return signerClass;
}

/** The standard AWS credential chain, imported on first use and shared. */
function defaultCredentials(): Promise<AwsCredentials> {
  defaultChain ??= import("@aws-sdk/credential-provider-node").then((m) => m.defaultProvider() as CredentialProvider);
  return defaultChain.then((provider) => provider());
}

/**
 * The SigV4 auth scheme. Whole bodies are hashed; an event stream
 * (`application/vnd.amazon.eventstream`) is signed message by message, as
 * AWS SDKs sign Transcribe Streaming's (`STREAMING-AWS4-HMAC-SHA256-EVENTS`,
 * each message in a signed envelope chained to the request's signature);
 * other streamed bodies are signed as `UNSIGNED-PAYLOAD`.
 */
export function sigv4(options: SigV4Options): SigV4Scheme {
  const given = options.credentials;
  // Credentials now: the value given, what the provider given answers (called for every request), or the chain's.
  const credentialsNow: () => AwsCredentials | Promise<AwsCredentials> =
    given === undefined ? defaultCredentials : typeof given === "function" ? (given as () => AwsCredentials | Promise<AwsCredentials>) : () => given;
  // @smithy/signature-v4's form of the same, for presigning and event streams.
  const credentials: SignatureV4Init["credentials"] = async () => credentialsNow();
  const clock = options.now ?? (() => new Date());
  // Server time minus local time, learnt from an answer that said the clock is off; kept for every later call.
  let offset = 0;
  const signingTime = (): Date => (offset === 0 ? clock() : new Date(clock().getTime() + offset));
  const requests = requestSigner({ region: options.region, applyChecksum: options.applyChecksum ?? true, uriEscapePath: options.uriEscapePath ?? true });
  const signers = new Map<string, SignatureV4>();
  const signerFor = async (name: string): Promise<SignatureV4> => {
    const existing = signers.get(name);
    if (existing !== undefined) return existing;
    const Signer = await loadSignatureV4();
    // Another call may have made it while this one waited for the import.
    const signer =
      signers.get(name) ??
      new Signer({
        service: name,
        region: options.region,
        credentials,
        sha256: smithySha256(),
        applyChecksum: options.applyChecksum ?? true,
        uriEscapePath: options.uriEscapePath ?? true,
      });
    signers.set(name, signer);
    return signer;
  };

  return Object.freeze({
    id: SIGV4,
    async sign(request: HttpRequest, context: SigningContext): Promise<HttpRequest> {
      const name = options.signingName ?? signingNameOf(context);
      const host = request.host ?? context.endpoint.host;
      const body = request.body;
      const streamed = body !== undefined && !(body instanceof Uint8Array) && typeof body !== "string";
      const events = streamed && request.headers.get("content-type")?.startsWith("application/vnd.amazon.eventstream") === true;
      const now = credentialsNow();
      // Given credentials are used as they are: no promise to wait for.
      const resolved: SigningCredentials = isThenable(now) ? await now : now;
      const signed = requests.sign(request, host, name, signingTime(), resolved, streamed ? (events ? STREAMING_EVENTS : "UNSIGNED-PAYLOAD") : undefined);
      const headers = isThenable(signed) ? await signed : signed;
      if (!events) return { ...request, headers };
      // The event stream's messages are signed as they go, each chained to the one before, the first to the request.
      const signer = await signerFor(name);
      const seed = /Signature=([0-9a-f]{64})/.exec(headers.get("authorization") ?? "")![1]!;
      headers.delete("content-length");
      return { ...request, headers, body: signEventStream(body, signer, seed, signingTime) };
    },

    async presign(request: HttpRequest, presignOptions: SigV4PresignOptions): Promise<string> {
      const expiresIn = presignOptions.expiresIn ?? 3600;
      // @smithy/signature-v4 rejects more than a week with a string, and takes fractions and 0: this is the typed check.
      if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_EXPIRES_IN) {
        throw new RangeError(`sigv4 presign: expiresIn must be a whole number of seconds from 1 to ${MAX_EXPIRES_IN} (7 days), got ${expiresIn}`);
      }
      const name = presignOptions.signingName ?? options.signingName;
      if (name === undefined) throw new TypeError("sigv4 presign: no signing name; pass signingName to sigv4() or presign()");
      const endpoint = typeof presignOptions.endpoint === "string" ? new URL(presignOptions.endpoint) : presignOptions.endpoint;
      const host = request.host ?? endpoint.host;
      const headers: Record<string, string> = { host };
      request.headers.forEach((value, key) => {
        headers[key] = value;
      });
      const signer = await signerFor(name);
      const presigned = await signer.presign(
        {
          method: request.method,
          protocol: endpoint.protocol,
          hostname: host,
          path: request.path,
          query: queryBag(request.query),
          headers,
          body: request.body instanceof Uint8Array ? request.body : undefined,
        },
        // A given payload hash (S3: UNSIGNED-PAYLOAD) is signed as the payload, neither sent nor signed as a header.
        { signingDate: signingTime(), expiresIn, unhoistableHeaders: PAYLOAD_HASH_ONLY, unsignableHeaders: PAYLOAD_HASH_ONLY },
      );
      let search = "";
      for (const [key, value] of Object.entries(presigned.query ?? {})) {
        for (const one of Array.isArray(value) ? value : [value]) {
          if (one !== null) search += `${search === "" ? "?" : "&"}${encodeQueryPart(key)}=${encodeQueryPart(one)}`;
        }
      }
      return `${endpoint.protocol}//${host}${request.path}${search}`;
    },

    recoverFrom(error: unknown, response: HttpResponse | undefined): boolean {
      if (response === undefined || !AnvilError.isAnvilError(error) || !CLOCK_SKEW_CODES.has(error.code)) return false;
      const date = response.headers.get("date");
      // A cached answer's Date says nothing of the server's clock now.
      if (date === null || response.headers.has("age")) return false;
      const server = Date.parse(date);
      if (Number.isNaN(server)) return false;
      const local = clock().getTime();
      if (Math.abs(server - (local + offset)) < SKEW_THRESHOLD_MS) return false;
      offset = server - local;
      return true;
    },
  });
}

/** RFC 3986 percent-encoding, as SigV4 encodes query parameters: everything but the unreserved characters. */
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function signingNameOf(context: SigningContext): string {
  const trait = context.service.traits[SIGV4] as { name?: unknown } | undefined;
  if (typeof trait?.name === "string") return trait.name;
  throw new TypeError(`sigv4: service ${context.service.id} has no @aws.auth#sigv4 name; pass signingName`);
}

function queryBag(query: HttpRequest["query"]): Record<string, string | string[]> {
  const bag: Record<string, string | string[]> = {};
  for (const [name, value] of query) {
    const existing = bag[name];
    if (existing === undefined) bag[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else bag[name] = [existing, value];
  }
  return bag;
}
