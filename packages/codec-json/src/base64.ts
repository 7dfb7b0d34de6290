/**
 * Standard base64 (RFC 4648 §4) without Node's Buffer, so the codec runs in
 * browsers and workers too. Decoding is strict: any character outside the
 * alphabet, or misplaced padding, is an error.
 */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ENCODE: string[] = [];
for (let i = 0; i < 64; i++) ENCODE.push(ALPHABET[i]!);
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes as padded base64 (RFC 4648 §4). */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  const n = bytes.length;
  const full = n - (n % 3);
  for (let i = 0; i < full; i += 3) {
    const x = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ENCODE[x >> 18]! + ENCODE[(x >> 12) & 63]! + ENCODE[(x >> 6) & 63]! + ENCODE[x & 63]!;
  }
  if (n - full === 1) {
    const x = bytes[full]! << 16;
    out += `${ENCODE[x >> 18]!}${ENCODE[(x >> 12) & 63]!}==`;
  } else if (n - full === 2) {
    const x = (bytes[full]! << 16) | (bytes[full + 1]! << 8);
    out += `${ENCODE[x >> 18]!}${ENCODE[(x >> 12) & 63]!}${ENCODE[(x >> 6) & 63]!}=`;
  }
  return out;
}

/** Decodes base64 (padding optional); `undefined` when the text is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  let end = text.length;
  if (end % 4 === 0 && end > 0 && text.charCodeAt(end - 1) === 61) {
    end--;
    if (text.charCodeAt(end - 1) === 61) end--;
  }
  const rem = end % 4;
  if (rem === 1) return undefined;
  const out = new Uint8Array((end >> 2) * 3 + (rem === 0 ? 0 : rem - 1));
  let o = 0;
  let i = 0;
  const full = end - rem;
  for (; i < full; i += 4) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = sextet(text, i + 2);
    const d = sextet(text, i + 3);
    if ((a | b | c | d) < 0) return undefined;
    const x = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = x >> 16;
    out[o++] = (x >> 8) & 255;
    out[o++] = x & 255;
  }
  if (rem > 0) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = rem === 3 ? sextet(text, i + 2) : 0;
    if ((a | b | c) < 0) return undefined;
    const x = (a << 18) | (b << 12) | (c << 6);
    out[o++] = x >> 16;
    if (rem === 3) out[o++] = (x >> 8) & 255;
  }
  return out;
}

function sextet(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? DECODE[c]! : -1;
}
