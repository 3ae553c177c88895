/** What every benchmark reports: one row per measured quantity, ours against a baseline. */
export interface Row {
  name: string;
  unit: string;
  ours: number;
  baseline: number;
  /** ours / baseline; lower is better for every row. */
  ratio: number;
  /** The ratio we aim to stay at or under. */
  target: number;
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
