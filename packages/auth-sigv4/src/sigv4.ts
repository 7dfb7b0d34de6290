/**
 * AWS Signature Version 4 (`aws.auth#sigv4`, SPEC §6), on
 * `@smithy/signature-v4`. Credentials come from the caller or, by default,
 * from the standard AWS chain (`@aws-sdk/credential-provider-node`: env,
 * shared files, SSO, web identity, ECS/EC2 metadata). Both libraries are
 * imported when the first request is signed, so clients that do not sign
 * never load them.
 */
import type { AuthScheme, HttpRequest, Provider, SigningContext } from "@anvil/core";
import type { SignatureV4, SignatureV4Init } from "@smithy/signature-v4";
import { signEventStream, STREAMING_EVENTS } from "./event-signing.js";
import { WebCryptoSha256 } from "./sha256.js";

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
  /** The signing time; tests fix it. Default now. */
  readonly now?: () => Date;
}

const SIGV4 = "aws.auth#sigv4";

type CredentialProvider = () => Promise<AwsCredentials>;
type SmithyRequest = Parameters<SignatureV4["sign"]>[0];

let defaultChain: Promise<CredentialProvider> | undefined;
let signerClass: Promise<typeof SignatureV4> | undefined;

/** `@smithy/signature-v4`'s signer, imported when first needed and shared (clients that never sign never load it). */
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
export function sigv4(options: SigV4Options): AuthScheme {
  const credentials: SignatureV4Init["credentials"] =
    options.credentials === undefined
      ? defaultCredentials
      : typeof options.credentials === "function"
        ? async () => (options.credentials as () => AwsCredentials | Promise<AwsCredentials>)()
        : options.credentials;
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
        sha256: WebCryptoSha256,
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
      const headers: Record<string, string> = { host };
      request.headers.forEach((value, key) => {
        headers[key] = value;
      });
      const unsigned: SmithyRequest = {
        method: request.method,
        protocol: context.endpoint.protocol,
        hostname: host,
        path: request.path,
        query: queryBag(request.query),
        headers,
        body: request.body instanceof Uint8Array ? request.body : undefined,
      };
      const streamed = request.body !== undefined && !(request.body instanceof Uint8Array) && typeof request.body !== "string";
      const events = streamed && request.headers.get("content-type")?.startsWith("application/vnd.amazon.eventstream") === true;
      if (streamed) headers["x-amz-content-sha256"] = events ? STREAMING_EVENTS : "UNSIGNED-PAYLOAD";
      const signer = await signerFor(name);
      const signed = await signer.sign(unsigned, { signingDate: options.now?.() ?? new Date() });
      const out = new Headers();
      for (const [key, value] of Object.entries(signed.headers)) if (key.toLowerCase() !== "host") out.set(key, value);
      if (!events) return { ...request, headers: out };
      // The event stream's messages are signed as they go, each chained to the one before, the first to the request.
      const seed = /Signature=([0-9a-f]{64})/.exec(out.get("authorization") ?? "")![1]!;
      out.delete("content-length");
      return { ...request, headers: out, body: signEventStream(request.body, signer, seed, options.now ?? (() => new Date())) };
    },
  });
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
