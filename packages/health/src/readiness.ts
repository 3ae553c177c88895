/**
 * One thing the process needs (the platform, the database, Redis). `check` resolves with
 * undefined when it is reachable, or with a short reason when it is not; a throw counts as
 * a reason too.
 */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<string | undefined> | string | undefined;
}

export type Readiness = { ready: true } | { ready: false; reasons: string[] };

/**
 * Whether the process should be sent work: every check passes and draining has not begun.
 * Checks run side by side, each within `timeoutMs`, so one that hangs (a half-open
 * connection) answers "not ready" instead of hanging the probe.
 */
export class ReadinessChecks {
  readonly #checks: ReadinessCheck[] = [];
  readonly #timeoutMs: number;
  #draining = false;

  constructor(options: { timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? 2000;
  }

  add(check: ReadinessCheck): void {
    this.#checks.push(check);
  }

  /** From now on the process answers not ready: load balancers stop sending it work. */
  beginDrain(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  async evaluate(): Promise<Readiness> {
    if (this.#draining) return { ready: false, reasons: ['draining: the process is shutting down'] };
    const results = await Promise.all(this.#checks.map((check) => this.#run(check)));
    const reasons = results.filter((reason): reason is string => reason !== undefined);
    return reasons.length === 0 ? { ready: true } : { ready: false, reasons };
  }

  async #run(check: ReadinessCheck): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${this.#timeoutMs} ms`), this.#timeoutMs);
    });
    try {
      const reason = await Promise.race([Promise.resolve().then(() => check.check()), timeout]);
      return reason === undefined ? undefined : `${check.name}: ${reason}`;
    } catch (error) {
      return `${check.name}: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      clearTimeout(timer);
    }
  }
}
