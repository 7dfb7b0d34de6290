/**
 * SHA-256 and HMAC-SHA-256: synchronous on `node:crypto` where the platform
 * has it (Node, Bun, Deno: found with `process.getBuiltinModule`, so that
 * no Node module is imported into code a browser or a Worker loads), else
 * on WebCrypto's `crypto.subtle`, whose every operation is a promise (and,
 * on Node, a trip to the thread pool). Also in the shape
 * `@smithy/signature-v4` asks for (a checksum constructor taking an
 * optional HMAC secret).
 */

type SourceData = string | ArrayBuffer | ArrayBufferView;

/** What this module uses of `node:crypto`. */
interface NodeCrypto {
  createHash(algorithm: "sha256"): NodeHash;
  createHmac(algorithm: "sha256", key: string | Uint8Array): NodeHash;
  /** One-shot hash (Node 20.12+, 21.7+): no hash object to make. */
  hash?: (algorithm: "sha256", data: string | Uint8Array, encoding: "hex") => string;
}

interface NodeHash {
  update(data: string | Uint8Array): NodeHash;
  digest(): Uint8Array;
  digest(encoding: "hex"): string;
}

/** Synchronous SHA-256 and HMAC-SHA-256, where the platform has them. Text is hashed as UTF-8. */
export interface SyncHashes {
  /** The SHA-256 of text or bytes, in lower-case hex. */
  sha256Hex(data: string | Uint8Array): string;
  /** The HMAC-SHA-256 of text under a key (text keys as UTF-8). */
  hmac(key: string | Uint8Array, data: string): Uint8Array;
  /** {@link SyncHashes.hmac} in lower-case hex. */
  hmacHex(key: Uint8Array, data: string): string;
}

let nodeModule: NodeCrypto | null | undefined;

/** `node:crypto`, where the platform has it; looked up once. */
function nodeCrypto(): NodeCrypto | undefined {
  if (nodeModule === undefined) {
    const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    const crypto = get?.("node:crypto") as Partial<NodeCrypto> | undefined;
    nodeModule = typeof crypto?.createHash === "function" && typeof crypto.createHmac === "function" ? (crypto as NodeCrypto) : null;
  }
  return nodeModule ?? undefined;
}

let syncHashes: SyncHashes | undefined;

/** The platform's synchronous hashes (`node:crypto`), or undefined where there are none (browsers, Workers without Node compatibility). */
export function platformHashes(): SyncHashes | undefined {
  if (syncHashes !== undefined) return syncHashes;
  const crypto = nodeCrypto();
  if (crypto !== undefined) syncHashes = nodeHashes(crypto);
  return syncHashes;
}

function nodeHashes(crypto: NodeCrypto): SyncHashes {
  const { createHash, createHmac } = crypto;
  const oneShot = typeof crypto.hash === "function" ? crypto.hash : undefined;
  return Object.freeze<SyncHashes>({
    sha256Hex: oneShot === undefined ? (data) => createHash("sha256").update(data).digest("hex") : (data) => oneShot("sha256", data, "hex"),
    hmac: (key, data) => createHmac("sha256", key).update(data).digest(),
    hmacHex: (key, data) => createHmac("sha256", key).update(data).digest("hex"),
  });
}

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

/** The checksum constructor `@smithy/signature-v4` asks for. */
export type Sha256Constructor = new (secret?: SourceData) => { update(data: SourceData): void; digest(): Promise<Uint8Array>; reset(): void };

/** A SHA-256 (or HMAC-SHA-256) on `node:crypto`: each update hashes as it comes, nothing is copied or kept. */
function nodeSha256Class(crypto: NodeCrypto): Sha256Constructor {
  return class NodeSha256 {
    readonly #secret: Uint8Array | undefined;
    #hash: NodeHash;

    constructor(secret?: SourceData) {
      this.#secret = secret === undefined ? undefined : bytesOf(secret);
      this.#hash = this.#fresh();
    }

    #fresh(): NodeHash {
      return this.#secret === undefined ? crypto.createHash("sha256") : crypto.createHmac("sha256", this.#secret);
    }

    update(data: SourceData): void {
      this.#hash.update(typeof data === "string" ? data : bytesOf(data));
    }

    async digest(): Promise<Uint8Array> {
      return this.#hash.digest();
    }

    reset(): void {
      this.#hash = this.#fresh();
    }
  };
}

let sha256Class: Sha256Constructor | undefined;

/** The checksum constructor for `@smithy/signature-v4`: on `node:crypto` where there is one, else on WebCrypto. */
export function smithySha256(): Sha256Constructor {
  if (sha256Class === undefined) {
    const crypto = nodeCrypto();
    sha256Class = crypto === undefined ? WebCryptoSha256 : nodeSha256Class(crypto);
  }
  return sha256Class;
}

/** Bytes as lower-case hex, as SigV4 writes hashes and signatures. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!]!;
  return out;
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Lower-case hex (a signature) as bytes. */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The SHA-256 of some bytes, in hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const sync = platformHashes();
  if (sync !== undefined) return sync.sha256Hex(bytes);
  const hash = new WebCryptoSha256();
  hash.update(bytes);
  return toHex(await hash.digest());
}
