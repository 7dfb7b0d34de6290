/**
 * Timestamp text formats: RFC 3339 date-time and IMF-fixdate (http-date).
 * Parsing is strict about shape and ranges; milliseconds are the precision
 * kept (a Date holds no more).
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const HTTP_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? GMT$/;
const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (valid for every year, unlike Date.UTC below 100). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function toMillis(year: number, month: number, day: number, hour: number, minute: number, second: number, fraction: string | undefined): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = fraction === undefined ? 0 : Number(`${fraction}00`.slice(0, 3));
  return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms;
}

/** Parses RFC 3339 date-time text (offsets and fractions accepted); `undefined` when malformed. */
export function parseDateTime(text: string): Date | undefined {
  const fast = parseUtcDateTime(text);
  if (fast !== undefined) return fast;
  const m = DATE_TIME.exec(text);
  if (m === null) return undefined;
  let ms = toMillis(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!, m[7]);
  if (ms === undefined) return undefined;
  if (m[8] === undefined) {
    const oh = +m[10]!;
    const om = +m[11]!;
    if (oh > 23 || om > 59) return undefined;
    const offset = (oh * 60 + om) * 60_000;
    ms += m[9] === "+" ? -offset : offset;
  }
  return new Date(ms);
}

/** Two ASCII digits at `i` as a number, or -1. */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >>> 0 > 9 || b >>> 0 > 9 ? -1 : a * 10 + b;
}

/** The common shape `YYYY-MM-DDTHH:MM:SS[.f...]Z` in integer arithmetic, without a regex; `undefined` for anything else (the regex path decides). */
function parseUtcDateTime(text: string): Date | undefined {
  const n = text.length;
  if (
    n < 20 ||
    text.charCodeAt(n - 1) !== 90 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  )
    return undefined;
  let ms = 0;
  if (n > 20) {
    // A fraction: a dot and one or more digits; milliseconds are its first three.
    if (n === 21 || text.charCodeAt(19) !== 46) return undefined;
    for (let i = 20; i < n - 1; i++) {
      const f = text.charCodeAt(i) - 48;
      if (f >>> 0 > 9) return undefined;
      if (i < 23) ms = ms * 10 + f;
    }
    if (n === 22) ms *= 100;
    else if (n === 23) ms *= 10;
  }
  const century = twoDigits(text, 0);
  const yy = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if ((century | yy | month | day | hour | minute | second) < 0) return undefined;
  const year = century * 100 + yy;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  return new Date(((daysFromCivilSmall(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms);
}

/** {@link daysFromCivil} for years 0–9999, in integer arithmetic (shifted by one 400-year era to stay non-negative). */
function daysFromCivilSmall(year: number, month: number, day: number): number {
  const y = (month <= 2 ? year - 1 : year) + 400;
  const era = (y / 400) | 0;
  const yoe = y - era * 400;
  const doy = (((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) | 0) + day - 1;
  const doe = yoe * 365 + ((yoe / 4) | 0) - ((yoe / 100) | 0) + doy;
  return (era - 1) * 146_097 + doe - 719_468;
}

/** Parses IMF-fixdate (HTTP date) text; `undefined` when malformed. */
export function parseHttpDate(text: string): Date | undefined {
  const m = HTTP_DATE.exec(text);
  if (m === null) return undefined;
  const month = MONTHS.indexOf(m[2]!) / 3 + 1;
  const ms = toMillis(+m[3]!, month, +m[1]!, +m[4]!, +m[5]!, +m[6]!, m[7]);
  return ms === undefined ? undefined : new Date(ms);
}

// Pieces of date-time text, so that writing one takes three concatenations
// (`"2024-` `06-06T` `05:05:` `05Z"`) instead of one per field and separator.
const TWO_DIGITS: string[] = [];
for (let i = 0; i < 100; i++) TWO_DIGITS.push(i < 10 ? `0${i}` : String(i));
/** `MM-DDT` at `month * 32 + day`. */
const MONTH_DAY: string[] = [];
for (let i = 0; i < 13 * 32; i++) MONTH_DAY.push(`${TWO_DIGITS[i >> 5]!}-${TWO_DIGITS[i & 31]!}T`);
/** `HH:MM:` at `hour * 60 + minute`. */
const HOUR_MINUTE: string[] = [];
for (let i = 0; i < 24 * 60; i++) HOUR_MINUTE.push(`${TWO_DIGITS[(i / 60) | 0]!}:${TWO_DIGITS[i % 60]!}:`);
const TWO_Z = TWO_DIGITS.map((x) => `${x}Z`);
const TWO_Z_QUOTE = TWO_DIGITS.map((x) => `${x}Z"`);
/** `YYYY-` and `"YYYY-`, filled as years are met (there are 10 000 of them). */
const YEAR: (string | undefined)[] = [];
const QUOTE_YEAR: (string | undefined)[] = [];
/** Milliseconds as fractional seconds without trailing zeros: 500 → ".5", 120 → ".12", 5 → ".005". */
const FRACTION: string[] = [""];
for (let i = 1; i < 1000; i++) FRACTION.push(`.${String(i).padStart(3, "0").replace(/0+$/, "")}`);

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const MIN_DATE_TIME_MS = -62_167_219_200_000;
const MAX_DATE_TIME_MS = 253_402_300_799_999;

function yearText(year: number, quoted: boolean): string {
  const table = quoted ? QUOTE_YEAR : YEAR;
  let text = table[year];
  if (text === undefined) {
    text = `${quoted ? '"' : ""}${String(year).padStart(4, "0")}-`;
    table[year] = text;
  }
  return text;
}

/**
 * @internal RFC 3339 UTC text of a time value, quoted as a JSON string or
 * not; `undefined` outside years 0–9999 (and for NaN).
 */
export function dateTimeText(t: number, quoted: boolean): string | undefined {
  if (!(t >= MIN_DATE_TIME_MS && t <= MAX_DATE_TIME_MS)) return undefined; // NaN too
  const days = Math.floor(t / 86_400_000);
  // Below, every value is a small non-negative integer: `(a / b) | 0` is integer division.
  const msOfDay = t - days * 86_400_000;
  const ms = msOfDay % 1000;
  const secs = (msOfDay - ms) / 1000;
  const minutes = (secs / 60) | 0;
  const second = secs - minutes * 60;
  // civil-from-days (H. Hinnant), shifted by one 400-year era so that years 0–9999 stay non-negative.
  const z = days + 719_468 + 146_097;
  const era = (z / 146_097) | 0;
  const doe = z - era * 146_097;
  const yoe = ((doe - ((doe / 1460) | 0) + ((doe / 36_524) | 0) - ((doe / 146_096) | 0)) / 365) | 0;
  const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0));
  const mp = ((5 * doy + 2) / 153) | 0;
  const day = doy - (((153 * mp + 2) / 5) | 0) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + (era - 1) * 400 + (month <= 2 ? 1 : 0);
  const text = yearText(year, quoted) + MONTH_DAY[month * 32 + day]! + HOUR_MINUTE[minutes]!;
  if (ms === 0) return text + (quoted ? TWO_Z_QUOTE : TWO_Z)[second]!;
  return text + TWO_DIGITS[second]! + FRACTION[ms]! + (quoted ? 'Z"' : "Z");
}

/**
 * Writes RFC 3339 UTC text, with fractional seconds only when
 * non-zero; `undefined` outside years 0–9999. Computed from the time value
 * rather than through `toISOString` and slicing, which dominated write time
 * for timestamp-heavy payloads.
 */
export function formatDateTime(date: Date): string | undefined {
  return dateTimeText(date.getTime(), false);
}

/** @internal {@link formatDateTime} as a JSON string (quotes included). */
export function quotedDateTime(date: Date): string | undefined {
  return dateTimeText(date.getTime(), true);
}

/** Writes IMF-fixdate (HTTP date) text (whole seconds); `undefined` outside years 0–9999. */
export function formatHttpDate(date: Date): string | undefined {
  const t = date.getTime();
  const year = date.getUTCFullYear();
  if (Number.isNaN(t) || year < 0 || year > 9999) return undefined;
  return date.toUTCString();
}
