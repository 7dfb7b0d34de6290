/**
 * UTF-8 encoding for the hot path. `TextEncoder.encode` allocates a new
 * buffer for every string, which dominates for the short texts (a JSON body,
 * a header) a request or response holds. Short strings are encoded into a
 * shared slab instead and returned as views of it: a region is handed out
 * once and never written again, and a full slab is simply replaced (the
 * views keep the old one alive). Node's `Buffer` pool works the same way.
 */

const encoder = new TextEncoder();
const SLAB_SIZE = 64 * 1024;
/** Strings up to this many UTF-16 units go to the slab (at most three bytes per unit). */
const POOLED_MAX_UNITS = 2048;

let slab = new Uint8Array(SLAB_SIZE);
let offset = 0;

/**
 * The UTF-8 bytes of `text` (lone surrogates become U+FFFD, as with
 * `TextEncoder`). The result may be a view of a shared buffer: read it, send
 * it, copy it, but do not transfer or detach its `buffer`.
 */
export function encodeUtf8(text: string): Uint8Array {
  const units = text.length;
  if (units > POOLED_MAX_UNITS) return encoder.encode(text);
  if (offset + units * 3 > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    offset = 0;
  }
  const start = offset;
  // One call into the encoder, not a `charCodeAt` loop: a text built by concatenation (a JSON body) is a rope,
  // and reading one of those a character at a time costs many times what the encoder's single pass does.
  const written = encoder.encodeInto(text, slab.subarray(start)).written;
  // The next region starts on an 8-byte boundary, so views stay aligned for readers that care.
  offset = (start + written + 7) & ~7;
  return slab.subarray(start, start + written);
}
