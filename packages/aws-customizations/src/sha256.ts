/**
 * SHA-256 digests on Web Crypto (Node 20+, Deno, Bun, browsers), and the
 * SHA-256 tree hash Glacier asks for.
 *
 * @internal
 */

/** Glacier hashes payloads in 1 MiB chunks. */
const CHUNK = 1024 * 1024;

/** The SHA-256 digest of bytes. */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/**
 * The SHA-256 tree hash of bytes: the digests of each 1 MiB chunk, then of
 * each pair of digests, level by level (an odd digest out moves up as it
 * is) until one is left. The tree hash of at most one chunk is its digest.
 */
export async function sha256TreeHash(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.length <= CHUNK) return sha256(bytes);
  let level: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) level.push(await sha256(bytes.subarray(i, i + CHUNK)));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1];
      if (right === undefined) {
        next.push(left);
        continue;
      }
      const pair = new Uint8Array(left.length + right.length);
      pair.set(left);
      pair.set(right, left.length);
      next.push(await sha256(pair));
    }
    level = next;
  }
  return level[0]!;
}

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += bytes[i]!.toString(16).padStart(2, "0");
  return out;
}
