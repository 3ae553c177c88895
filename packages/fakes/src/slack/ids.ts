/**
 * Identifiers the way Slack shapes them: message timestamps `'1700000000.000100'` (seconds and
 * microseconds, unique and strictly increasing within a workspace, so they sort as strings of
 * equal length do) and upper-case IDs with a type prefix (`F…` files, `Ev…` events).
 */
export class SlackIds {
  #lastMicros = 0;
  #counters = new Map<string, number>();

  /** A fresh message timestamp, never equal to or below the previous one even within a microsecond. */
  nextTs(): string {
    const micros = Math.max(Date.now() * 1000, this.#lastMicros + 1);
    this.#lastMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    const fraction = String(micros % 1_000_000).padStart(6, '0');
    return `${seconds}.${fraction}`;
  }

  /** `prefix` followed by a zero-padded base-36 counter, e.g. `F00000001A`. */
  next(prefix: string, width = 9): string {
    const n = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, n);
    return prefix + n.toString(36).toUpperCase().padStart(width, '0');
  }
}
