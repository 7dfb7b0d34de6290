/**
 * Timestamp text formats: RFC 3339 date-time and IMF-fixdate (http-date).
 * Parsing is strict about shape and ranges; milliseconds are the precision
 * kept (a Date holds no more).
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? GMT$/;
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

/** @internal Parses RFC 3339 date-time text; `undefined` when malformed. */
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

function digit(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
}

/** The common shapes `YYYY-MM-DDTHH:MM:SSZ` and `...SS.sssZ`, without a regex; `undefined` for anything else. */
function parseUtcDateTime(text: string): Date | undefined {
  const n = text.length;
  if ((n !== 20 && n !== 24) || text.charCodeAt(n - 1) !== 90 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  if (n === 24 && text.charCodeAt(19) !== 46) return undefined;
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
  const month = digit(text, 5) * 10 + digit(text, 6);
  const day = digit(text, 8) * 10 + digit(text, 9);
  const hour = digit(text, 11) * 10 + digit(text, 12);
  const minute = digit(text, 14) * 10 + digit(text, 15);
  const second = digit(text, 17) * 10 + digit(text, 18);
  const ms = n === 24 ? digit(text, 20) * 100 + digit(text, 21) * 10 + digit(text, 22) : 0;
  if (Number.isNaN(year + month + day + hour + minute + second + ms)) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  return new Date(((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms);
}

/** @internal Parses IMF-fixdate text; `undefined` when malformed. */
export function parseHttpDate(text: string): Date | undefined {
  const m = HTTP_DATE.exec(text);
  if (m === null) return undefined;
  const month = MONTHS.indexOf(m[2]!) / 3 + 1;
  const ms = toMillis(+m[3]!, month, +m[1]!, +m[4]!, +m[5]!, +m[6]!, m[7]);
  return ms === undefined ? undefined : new Date(ms);
}

/** @internal Writes RFC 3339 UTC text, with fractional seconds only when non-zero; `undefined` outside years 0–9999. */
export function formatDateTime(date: Date): string | undefined {
  const t = date.getTime();
  const year = date.getUTCFullYear();
  if (t !== t || year < 0 || year > 9999) return undefined;
  const iso = date.toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ for years 0–9999
  return t % 1000 === 0 ? `${iso.slice(0, 19)}Z` : iso.slice(0, 19) + trimFraction(iso.slice(19, 23)) + "Z";
}

function trimFraction(fraction: string): string {
  let end = fraction.length;
  while (fraction.charCodeAt(end - 1) === 48) end--;
  return fraction.slice(0, end);
}

/** @internal Writes IMF-fixdate text (whole seconds); `undefined` outside years 0–9999. */
export function formatHttpDate(date: Date): string | undefined {
  const t = date.getTime();
  const year = date.getUTCFullYear();
  if (t !== t || year < 0 || year > 9999) return undefined;
  return date.toUTCString();
}
