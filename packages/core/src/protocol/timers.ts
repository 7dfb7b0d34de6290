/**
 * Waiting with a time limit or a signal. Timers for deadlines of any length. `setTimeout` takes at most 2^31 - 1
 * milliseconds (about 24.8 days) and fires at once, with a warning, for
 * more; a valid `grpc-timeout` (up to 99,999,999 hours) or a caller's
 * `timeoutMs` can ask for more. These chain such delays, and cost nothing
 * extra for the usual short ones (the plain timer handle is returned).
 */

/** The longest delay `setTimeout` honours: 2^31 - 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay too long for one `setTimeout`, made of several. */
class LongTimer {
  handle: ReturnType<typeof setTimeout> | undefined;
  constructor(
    readonly fire: () => void,
    readonly due: number,
    readonly unref: boolean,
  ) {
    this.arm();
  }
  arm(): void {
    const left = this.due - Date.now();
    if (left <= MAX_TIMER_MS) {
      this.handle = setTimeout(this.fire, Math.max(0, left));
    } else {
      this.handle = setTimeout(() => this.arm(), MAX_TIMER_MS);
    }
    if (this.unref) (this.handle as { unref?: () => void }).unref?.();
  }
}

/** What {@link startTimer} returns, for {@link stopTimer}. */
export type Timer = ReturnType<typeof setTimeout> | LongTimer;

/**
 * Calls `fire` after `ms` milliseconds, however many (beyond
 * {@link MAX_TIMER_MS}, several timers in a row). With `unref`, the timer
 * does not keep a Node process alive on its own.
 */
export function startTimer(ms: number, fire: () => void, unref = false): Timer {
  if (ms > MAX_TIMER_MS) return new LongTimer(fire, Date.now() + ms, unref);
  const handle = setTimeout(fire, ms);
  if (unref) (handle as { unref?: () => void }).unref?.();
  return handle;
}

/** Cancels a timer of {@link startTimer} (nothing for one that fired, or undefined). */
export function stopTimer(timer: Timer | undefined): void {
  clearTimeout(timer instanceof LongTimer ? timer.handle : timer);
}

/**
 * The promise's outcome, or a rejection with the signal's reason as soon as
 * it aborts (a wait that hangs does not outlive its call). The listener
 * comes off once the promise settles.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
