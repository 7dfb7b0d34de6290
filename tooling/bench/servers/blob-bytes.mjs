// The bytes every side of the stream-memory bench sends, Anvil's and the
// bare baseline's alike (kept apart from blob-model.mjs so that the bare
// processes load nothing of Anvil's).

/** The size of the chunks every sender writes. */
export const CHUNK_BYTES = 64 * 1024;

/** The one chunk every sender writes again and again (never changed, so sharing it is safe). */
export const CHUNK = new Uint8Array(CHUNK_BYTES).map((_, i) => (i * 31 + 7) & 0xff);

/** `size` bytes as an async iterable of {@link CHUNK}s (the last one cut short). */
export async function* chunks(size) {
  for (let sent = 0; sent < size; sent += CHUNK_BYTES) yield size - sent >= CHUNK_BYTES ? CHUNK : CHUNK.subarray(0, size - sent);
}
