import { describe, expect, it } from "vitest";
import { CheckPhase } from "./check-phase.js";

describe("CheckPhase", () => {
  it("runs every task given in one turn together, in order, in the next check phase", async () => {
    const phase = new CheckPhase();
    const ran: string[] = [];
    phase.run(() => ran.push("a"));
    phase.run(() => ran.push("b"));
    await Promise.resolve();
    expect(ran).toEqual([]); // not as a microtask
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["a", "b"]);
    phase.run(() => ran.push("c"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["a", "b", "c"]);
  });

  it("lets a task's throw go uncaught as its own, and still runs the tasks after it", async () => {
    const phase = new CheckPhase();
    const ran: string[] = [];
    const thrown: unknown[] = [];
    const listeners = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", (error) => thrown.push(error));
    try {
      phase.run(() => ran.push("a"));
      phase.run(() => {
        throw new Error("boom");
      });
      phase.run(() => ran.push("c"));
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.removeAllListeners("uncaughtException");
      for (const listener of listeners) process.on("uncaughtException", listener);
    }
    expect(ran).toEqual(["a", "c"]);
    expect(thrown).toEqual([new Error("boom")]);
  });
});
