/** A failure reason on one line (its lines trimmed and joined), at most `max` characters. */
export function summarizeReason(reason: string, max = 200): string {
  const line = reason
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join(" ");
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
