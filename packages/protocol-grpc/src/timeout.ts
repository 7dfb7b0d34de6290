/**
 * `grpc-timeout`: at most eight digits and a unit (`H`, `M`, `S`, `m`, `u`,
 * `n`), e.g. `100m`.
 */

const UNIT_MS: Readonly<Record<string, number>> = Object.freeze({ H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 });
const TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const MAX_DIGITS = 99_999_999;

/** The timeout a `grpc-timeout` value sets, in milliseconds; undefined for a malformed value. */
export function parseTimeout(value: string): number | undefined {
  const match = TIMEOUT.exec(value.trim());
  if (match === null) return undefined;
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/**
 * A timeout as a `grpc-timeout` value: milliseconds while they fit eight
 * digits, else the smallest coarser unit that does (rounded up, so a
 * deadline is never made earlier than asked... nor later than a unit).
 */
export function formatTimeout(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole <= MAX_DIGITS) return `${whole}m`;
  for (const unit of ["S", "M", "H"] as const) {
    const amount = Math.ceil(whole / UNIT_MS[unit]!);
    if (amount <= MAX_DIGITS) return `${amount}${unit}`;
  }
  return `${MAX_DIGITS}H`;
}
