/**
 * SHA-256 and HMAC-SHA-256 on WebCrypto, in the shape `@smithy/signature-v4`
 * asks for (a checksum constructor taking an optional HMAC secret).
 */

type SourceData = string | ArrayBuffer | ArrayBufferView;

const encoder = new TextEncoder();

function bytesOf(data: SourceData): Uint8Array<ArrayBuffer> {
  if (typeof data === "string") return encoder.encode(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

/** A SHA-256 (or, given a secret, HMAC-SHA-256) over WebCrypto's `crypto.subtle`. */
export class WebCryptoSha256 {
  readonly #secret: Uint8Array<ArrayBuffer> | undefined;
  #chunks: Uint8Array<ArrayBuffer>[] = [];

  constructor(secret?: SourceData) {
    this.#secret = secret === undefined ? undefined : bytesOf(secret);
  }

  /** Adds data to the digest. */
  update(data: SourceData): void {
    // Copied: the caller may reuse its buffer before digest() runs.
    this.#chunks.push(bytesOf(data).slice());
  }

  /** The digest of everything added so far. */
  async digest(): Promise<Uint8Array> {
    const data = await new Blob(this.#chunks).arrayBuffer();
    if (this.#secret === undefined) return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    const key = await crypto.subtle.importKey("raw", this.#secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
  }

  /** Forgets the data added so far. */
  reset(): void {
    this.#chunks = [];
  }
}

/** Bytes as lower-case hex, as SigV4 writes hashes and signatures. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Lower-case hex (a signature) as bytes. */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The SHA-256 of some bytes, in hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const hash = new WebCryptoSha256();
  hash.update(bytes);
  return toHex(await hash.digest());
}
