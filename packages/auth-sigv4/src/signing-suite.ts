/**
 * Runs a SigV4 test case in the layout of AWS's signing test suite
 * (aws-c-auth's `tests/aws-signing-test-suite/v4`: per case a `request.txt`,
 * a `context.json`, and for the header-signed and the presigned variant
 * the expected canonical request, string to sign, signature and signed
 * request) through `sigv4()`, and says how its output compares.
 *
 * @internal
 */
import { createHash, createHmac } from "node:crypto";
import type { HttpRequest } from "@anvil/core";
import { sigv4 } from "./sigv4.js";
import { contextFor, Things } from "./test-fixtures.js";

/** A case's `context.json`. */
export interface SuiteContext {
  readonly credentials: { readonly access_key_id: string; readonly secret_access_key: string; readonly token?: string };
  readonly expiration_in_seconds: number;
  /** Whether the path is normalized and escaped once more (every service but S3). */
  readonly normalize: boolean;
  readonly region: string;
  readonly service: string;
  /** Whether `x-amz-content-sha256` is sent and signed. */
  readonly sign_body: boolean;
  readonly timestamp: string;
  /** Whether the session token is added after signing, unsigned. */
  readonly omit_session_token?: boolean;
}

/** One case: the request and what signing it must give. */
export interface SuiteCase {
  readonly name: string;
  readonly context: SuiteContext;
  /** `request.txt`. */
  readonly request: string;
  /** `header-` or `query-`: `canonical-request.txt`, `string-to-sign.txt`, `signature.txt`, `signed-request.txt`. */
  readonly header: SuiteExpected;
  readonly query: SuiteExpected;
}

/** What one variant of a case expects. */
export interface SuiteExpected {
  readonly canonicalRequest: string;
  readonly stringToSign: string;
  readonly signature: string;
  readonly signedRequest: string;
}

/** A request as the suite writes it, read as an HTTP/1.1 recipient would. */
interface ParsedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: [string, string][];
  /** Lower-case names; a repeated field's lines joined with `,`, folded lines unfolded. */
  readonly headers: Map<string, string>;
  readonly body: Uint8Array | undefined;
}

/**
 * Reads a request file. The target is taken as it is written: a path with
 * a space or non-ASCII letters is what the signer is given (the suite
 * escapes such paths once in the canonical request). A field sent on
 * several lines is one field, its values joined with commas, and a folded
 * line continues the value after one space (RFC 9110 §5.3, RFC 9112 §5.2):
 * a `Headers` holds fields that way.
 */
export function parseRequest(text: string): ParsedRequest {
  const blank = text.indexOf("\n\n");
  const head = blank < 0 ? text : text.slice(0, blank);
  const bodyText = blank < 0 ? "" : text.slice(blank + 2);
  const lines = head.split("\n");
  const requestLine = lines[0]!;
  const method = requestLine.slice(0, requestLine.indexOf(" "));
  const target = requestLine.slice(method.length + 1, requestLine.lastIndexOf(" "));
  const mark = target.indexOf("?");
  const path = mark < 0 ? target : target.slice(0, mark);
  const query: [string, string][] = [];
  if (mark >= 0) {
    for (const pair of target.slice(mark + 1).split("&")) {
      const eq = pair.indexOf("=");
      query.push(eq < 0 ? [decodeURIComponent(pair), ""] : [decodeURIComponent(pair.slice(0, eq)), decodeURIComponent(pair.slice(eq + 1))]);
    }
  }
  const fields: [string, string][] = [];
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    if (/^[ \t]/.test(line)) fields[fields.length - 1]![1] += ` ${line.trimStart()}`;
    else {
      const colon = line.indexOf(":");
      fields.push([line.slice(0, colon).toLowerCase(), line.slice(colon + 1)]);
    }
  }
  const headers = new Map<string, string>();
  for (const [name, value] of fields) {
    const existing = headers.get(name);
    headers.set(name, existing === undefined ? value.trim() : `${existing},${value.trim()}`);
  }
  return { method, path, query, headers, body: bodyText === "" ? undefined : new TextEncoder().encode(bodyText) };
}

/** The suite's request as Anvil's `HttpRequest` (its `Host` becomes `host`). */
export function toHttpRequest(parsed: ParsedRequest, path = parsed.path): HttpRequest {
  const headers = new Headers();
  for (const [name, value] of parsed.headers) if (name !== "host") headers.set(name, value);
  return { method: parsed.method, path, query: parsed.query, headers, body: parsed.body, host: parsed.headers.get("host")! };
}

/** What `sigv4()` made of a case, next to what the suite expects. */
export interface SuiteOutcome {
  /** Header-signed: the headers `sign` returned plus `host`, against those of `header-signed-request.txt`. */
  readonly signedHeaders: { readonly actual: Record<string, string>; readonly expected: Record<string, string> };
  /** The signature in our `Authorization`, and the suite's. */
  readonly headerSignature: { readonly actual: string; readonly expected: string };
  /** Presigned: the URL's path and query pairs (sorted), against `query-signed-request.txt`'s. */
  readonly presignedUrl: { readonly actual: readonly string[]; readonly expected: readonly string[] };
  /** The presigned URL's `X-Amz-Signature`, and the suite's. */
  readonly querySignature: { readonly actual: string; readonly expected: string };
}

/**
 * Signs a case both ways with `sigv4()` set as its context says: its
 * region, service, credentials and time; `normalize: false` is S3's
 * signing (`uriEscapePath: false`), `sign_body` sends the payload hash
 * (`applyChecksum`). `path` overrides the request's path.
 */
export async function runCase(c: SuiteCase, path?: string): Promise<SuiteOutcome> {
  const { context } = c;
  const scheme = sigv4({
    region: context.region,
    signingName: context.service,
    credentials: {
      accessKeyId: context.credentials.access_key_id,
      secretAccessKey: context.credentials.secret_access_key,
      ...(context.credentials.token === undefined ? {} : { sessionToken: context.credentials.token }),
    },
    applyChecksum: context.sign_body,
    uriEscapePath: context.normalize,
    now: () => new Date(context.timestamp),
  });
  const parsed = parseRequest(c.request);
  const request = toHttpRequest(parsed, path);
  const endpoint = `https://${request.host!}`;

  const signed = await scheme.sign(request, contextFor(Things, endpoint));
  const actualHeaders: Record<string, string> = { host: request.host! };
  signed.headers.forEach((value, name) => {
    actualHeaders[name] = value;
  });
  const expectedHeaders = Object.fromEntries(parseRequest(c.header.signedRequest).headers);
  const headerSignature = /Signature=([0-9a-f]+)$/.exec(actualHeaders.authorization ?? "")?.[1] ?? "";

  const url = await scheme.presign(request, { endpoint, expiresIn: context.expiration_in_seconds });
  const actualTarget = url.slice(endpoint.length);
  const expectedTarget = c.query.signedRequest
    .split("\n")[0]!
    .replace(/^\S+ /, "")
    .replace(/ HTTP\/1\.1$/, "");
  const pairsOf = (target: string, base: string) => {
    const parsedTarget = parseRequest(`GET ${target} HTTP/1.1\n`);
    return [`path ${path ?? base}`, ...parsedTarget.query.map(([k, v]) => `${k}=${v}`).sort()];
  };
  const actualPairs = pairsOf(actualTarget, actualTarget.split("?")[0]!);
  const querySignature = parseRequest(`GET ${actualTarget} HTTP/1.1\n`).query.find(([k]) => k === "X-Amz-Signature")?.[1] ?? "";
  return {
    signedHeaders: { actual: actualHeaders, expected: expectedHeaders },
    headerSignature: { actual: headerSignature, expected: c.header.signature },
    presignedUrl: { actual: actualPairs, expected: pairsOf(expectedTarget, parsed.path) },
    querySignature: { actual: querySignature, expected: c.query.signature },
  };
}

/**
 * The string to sign that a canonical request makes (SigV4's: algorithm,
 * time, scope, the canonical request's SHA-256), and the signature that a
 * string to sign makes under the case's secret. A signature of ours equal
 * to `signatureOf(expected string to sign)`, where the expected string to
 * sign is `stringToSignOf(expected canonical request)`, means our canonical
 * request and string to sign are the expected ones byte for byte (short of
 * a SHA-256 collision): the signer hashes both and shows neither.
 */
export function chainOf(scope: { readonly secretAccessKey: string; readonly region: string; readonly service: string; readonly timestamp: string }): {
  stringToSignOf(canonical: string): string;
  signatureOf(stringToSign: string): string;
} {
  const longDate = scope.timestamp.replace(/[-:]/g, "").replace(/\.\d+/, "");
  const shortDate = longDate.slice(0, 8);
  const credentialScope = `${shortDate}/${scope.region}/${scope.service}/aws4_request`;
  return {
    stringToSignOf: (canonical) => ["AWS4-HMAC-SHA256", longDate, credentialScope, createHash("sha256").update(canonical).digest("hex")].join("\n"),
    signatureOf(stringToSign) {
      let key: Buffer = createHmac("sha256", `AWS4${scope.secretAccessKey}`).update(shortDate).digest();
      for (const part of [scope.region, scope.service, "aws4_request"]) key = createHmac("sha256", key).update(part).digest();
      return createHmac("sha256", key).update(stringToSign).digest("hex");
    },
  };
}
