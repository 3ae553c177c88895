/** What every benchmark reports: one row per measured quantity, ours against a baseline. */
export interface Row {
  name: string;
  unit: string;
  ours: number;
  baseline: number;
  /** ours / baseline; lower is better for every row (not finite when the baseline is 0). */
  ratio: number;
  /** The ratio we aim to stay at or under, for head-to-head rows. */
  target?: number;
  /** An absolute bound on `ours`, in `unit`, where the issue sets one instead of a ratio. */
  max?: number;
}

/** Shared by all benchmarks of a run: the emulator they measure against. */
export interface BenchContext {
  emulatorUrl: string;
  apiKey: string;
}

export interface Benchmark {
  name: string;
  run(context: BenchContext): Promise<Row[]>;
}

export function row(name: string, unit: string, ours: number, baseline: number, target = 1): Row {
  return { name, unit, ours, baseline, ratio: ours / baseline, target };
}

/** A row judged by `ours` alone (`max`, when given); the baseline shows what the design buys. */
export function boundedRow(name: string, unit: string, ours: number, baseline: number, max?: number): Row {
  return { name, unit, ours, baseline, ratio: ours / baseline, ...(max === undefined ? {} : { max }) };
}

/** Whether the row misses its target (ratio or absolute bound). */
export function missesTarget(r: Row): boolean {
  return (r.target !== undefined && r.ratio > r.target) || (r.max !== undefined && r.ours > r.max);
}
