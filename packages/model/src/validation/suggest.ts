/** Edit distance between two strings (insertions, deletions, substitutions), capped for speed. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `wanted` (case-insensitive), if it is close enough
 * to be a plausible typo: used for "did you mean" hints.
 */
export function closestMatch(wanted: string, candidates: Iterable<string>): string | undefined {
  const w = wanted.toLowerCase();
  const cap = Math.max(1, Math.min(3, Math.floor(wanted.length / 3)));
  let best: string | undefined;
  let bestDistance = cap + 1;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase(), cap);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
