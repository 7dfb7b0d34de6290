// Timing helpers shared by the benches.

/** Mean ms per call of `fn` over at least `minMs` and `minRuns` calls. */
export function timePerCall(fn, minMs, minRuns = 3) {
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    fn();
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs || runs < minRuns);
  return elapsed / runs;
}

/** The median of a list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Times a baseline (`fns[0]`) and candidates in interleaved rounds, after a
 * warm-up past the optimizing compiler's tier-up, alternating the order each
 * round so all see the same machine load. For each function: the median ms
 * per call, and the median over rounds of its time divided by the baseline's
 * time in the same round (drift in machine load mostly cancels).
 */
export function interleaved(fns, totalMs, rounds = 15) {
  for (const fn of fns) timePerCall(fn, Math.min(200, totalMs / 10), 50);
  const sliceMs = Math.max(20, totalMs / rounds);
  const samples = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? fns.map((_, k) => k) : fns.map((_, k) => fns.length - 1 - k);
    for (const k of order) samples[k].push(timePerCall(fns[k], sliceMs));
  }
  return samples.map((s) => ({ ms: median(s), timeRatio: median(s.map((x, r) => x / samples[0][r])) }));
}

/** Calls/s and CPU µs per call (of the whole process) of `call` run by `concurrency` loops for `ms` milliseconds. */
export async function callLoops(call, concurrency, ms) {
  let calls = 0;
  const end = performance.now() + ms;
  const loop = async () => {
    while (performance.now() < end) {
      await call();
      calls++;
    }
  };
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { callsPerSecond: calls / seconds, cpuUs: (used.user + used.system) / calls };
}

/**
 * Clients (`[name, call]` pairs) measured in alternating rounds of
 * `sliceMs` each at `concurrency`, after `warmMs` of warming each (past
 * the optimizing compiler's tier-up); the last client is the baseline of
 * the ratios, which are medians of per-round ratios.
 */
export async function compareClients(clients, concurrency, rounds, sliceMs, warmMs) {
  for (const [, call] of clients) await callLoops(call, concurrency, warmMs);
  const samples = clients.map(() => []);
  const base = clients.length - 1;
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? clients.map((_, k) => k) : clients.map((_, k) => clients.length - 1 - k);
    for (const k of order) samples[k].push(await callLoops(clients[k][1], concurrency, sliceMs));
  }
  return clients.map(([name], k) => ({
    name,
    concurrency,
    callsPerSecond: median(samples[k].map((s) => s.callsPerSecond)),
    cpuUs: median(samples[k].map((s) => s.cpuUs)),
    speedRatio: median(samples[k].map((s, r) => s.callsPerSecond / samples[base][r].callsPerSecond)),
    cpuRatio: median(samples[k].map((s, r) => s.cpuUs / samples[base][r].cpuUs)),
    speedRatios: samples[k].map((s, r) => s.callsPerSecond / samples[base][r].callsPerSecond),
  }));
}
