/**
 * Holds work at a point while a test looks at what shows meanwhile: `pass()`
 * resolves at once while the gate is open, and only once it opens again
 * while it is held. A condition the test waits on, never a sleep.
 */
export class Gate {
  #opened: Promise<void> = Promise.resolve();

  /** Closes the gate; the result opens it again. */
  hold(): () => void {
    let open: () => void = () => {};
    this.#opened = new Promise((resolve) => {
      open = resolve;
    });
    return () => {
      open();
      this.#opened = Promise.resolve();
    };
  }

  pass(): Promise<void> {
    return this.#opened;
  }
}
