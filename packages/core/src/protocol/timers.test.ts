import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_MS, startTimer, stopTimer } from "./timers.js";

describe("timers (T3)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires a delay beyond setTimeout's 2^31 - 1 ms when due, not at once", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const days30 = 30 * 24 * 3_600_000;
    startTimer(days30, fired);
    vi.advanceTimersByTime(1_000);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(days30 - MAX_TIMER_MS - 1_000);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it("a grpc-timeout of 99999999H is a timer that does not fire for years", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    startTimer(99_999_999 * 3_600_000, fired);
    vi.advanceTimersByTime(10 * MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
  });

  it("stops short and long timers alike", () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    stopTimer(startTimer(10, fired));
    const long = startTimer(MAX_TIMER_MS + 10, fired);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    stopTimer(long);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    stopTimer(undefined);
    expect(fired).not.toHaveBeenCalled();
  });
});
