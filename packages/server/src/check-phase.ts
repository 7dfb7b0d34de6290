/**
 * Runs functions in the event loop's next check phase, all of them from one
 * `setImmediate`: a client with many streams open sends many requests in
 * one read, and an `Immediate` for each would cost every call an object and
 * a place in Node's list.
 */
export class CheckPhase {
  #due: (() => void)[] = [];

  /** Runs `task` in the next check phase, after the tasks given before it. */
  run(task: () => void): void {
    if (this.#due.push(task) === 1) setImmediate(this.#runDue);
  }

  readonly #runDue = (): void => {
    const due = this.#due;
    this.#due = [];
    for (let i = 0; i < due.length; i++) {
      try {
        due[i]!();
      } catch (error) {
        // Thrown as from an `Immediate` of its own; the tasks after it still run, in the next check phase.
        for (const task of due.slice(i + 1)) this.run(task);
        throw error;
      }
    }
  };
}
