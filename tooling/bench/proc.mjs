// What Linux tells about a process from outside it, for the benches that
// watch a server's or a client's memory and descriptors (soak,
// stream-memory): read from /proc, so the process measured does no work of
// its own to be measured.
import { readdirSync, readFileSync } from "node:fs";

/** Whether /proc tells memory and descriptors here (Linux). */
export function hasProc() {
  try {
    readFileSync(`/proc/${process.pid}/status`, "utf8");
    readdirSync(`/proc/${process.pid}/fd`);
    return true;
  } catch {
    return false;
  }
}

/** A process's resident memory now (VmRSS) and at its peak so far (VmHWM), in bytes. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

/** How many file descriptors a process has open (sockets, pipes, files). */
export function openFds(pid) {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Bytes as MiB with one decimal. */
export const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;

/**
 * A duration given on the command line, in seconds: `600`, `90s`, `10m`,
 * `1.5h`; `fallback` when none is given. Throws on anything else.
 */
export function parseDuration(text, fallback) {
  if (text === undefined) return fallback;
  const m = /^(\d+(?:\.\d+)?)([smh]?)$/.exec(text.trim());
  if (m === null) throw new Error(`--duration ${text}: give seconds, or a number with s, m or h (600, 90s, 10m)`);
  return Number(m[1]) * { "": 1, s: 1, m: 60, h: 3600 }[m[2]];
}

/** A size given on the command line, in bytes: `1073741824`, `512k`, `128m`, `1g`; `fallback` when none is given. */
export function parseSize(text, fallback) {
  if (text === undefined) return fallback;
  const m = /^(\d+)([kmg]?)$/i.exec(text.trim());
  if (m === null) throw new Error(`--size ${text}: give bytes, or a number with k, m or g (128m, 1g)`);
  return Number(m[1]) * { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()];
}
