// Bodies in pieces, as a socket hands them over: what the streaming decoders' fuzz targets feed them.

/** A body cut into chunks at the given places (each taken modulo the length). */
export function cut(bytes, at) {
  const points = [...new Set(at.map((i) => i % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

/** The chunks as an async iterable, one at a time. */
export async function* iterate(chunks) {
  for (const c of chunks) yield c;
}
