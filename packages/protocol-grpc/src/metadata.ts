/**
 * gRPC metadata is HTTP/2 headers: custom ones travel as they are, and a
 * name ending in `-bin` holds bytes, base64-encoded (padded or not, as
 * receivers must accept both).
 */

/** Whether a metadata key holds binary values. */
export function isBinaryKey(name: string): boolean {
  return name.toLowerCase().endsWith("-bin");
}

/** Bytes as a `-bin` header value (padded base64). */
export function encodeBinaryHeader(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/**
 * The bytes of a `-bin` header value (padded or unpadded base64); several
 * values joined by `,` are concatenated. Throws a SyntaxError on text that
 * is not base64.
 */
export function decodeBinaryHeader(value: string): Uint8Array {
  let binary = "";
  for (const part of value.split(",")) {
    const text = part.trim();
    binary += atob(text + "===".slice(0, (4 - (text.length % 4)) % 4));
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Headers gRPC itself owns: what is left of a request's or response's
 * headers without them is the caller's metadata.
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  "content-type",
  "te",
  "user-agent",
  "grpc-timeout",
  "grpc-encoding",
  "grpc-accept-encoding",
  "grpc-status",
  "grpc-message",
  "grpc-status-details-bin",
  "content-length",
]);

/** The custom metadata among headers (reserved gRPC and HTTP headers left out). */
export function customMetadata(headers: Headers): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (!RESERVED_HEADERS.has(name) && !name.startsWith(":")) out.append(name, value);
  });
  return out;
}
