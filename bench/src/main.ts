/**
 * `pnpm bench`: runs every registered benchmark against one emulator (in its
 * own process), prints the table on stdout and writes bench/results.json.
 * Progress goes to stderr. To add rows, add a Benchmark to BENCHMARKS
 * (benchmarks.ts); to run just one of them, see run-one.ts.
 */
import { API_KEY, BENCHMARKS } from './benchmarks.js';
import { startEmulatorProcess } from './emulator.js';
import { collectResults, formatTable, type SectionTime, writeResults } from './report.js';
import type { Row } from './suite.js';

const RESULTS = new URL('../results.json', import.meta.url);

// No pause between deltas by default: the client's own cost is what is measured, not the emulator's
// pacing. The chat rows pace their streams with `[delay:MS]` in the prompt.
const emulator = await startEmulatorProcess({ apiKey: API_KEY, streamDelayMs: 0 });
const rows: Row[] = [];
const sections: SectionTime[] = [];
const runStarted = performance.now();
try {
  for (const benchmark of BENCHMARKS) {
    const started = performance.now();
    process.stderr.write(`bench: ${benchmark.name} ...\n`);
    rows.push(...(await benchmark.run({ emulatorUrl: emulator.url, apiKey: API_KEY })));
    const seconds = (performance.now() - started) / 1000;
    sections.push({ name: benchmark.name, seconds });
    process.stderr.write(`bench: ${benchmark.name} done in ${seconds.toFixed(1)} s\n`);
  }
} finally {
  await emulator.close();
}
process.stdout.write(`${formatTable(rows)}\n`);
process.stderr.write(`bench: all in ${((performance.now() - runStarted) / 1000).toFixed(0)} s\n`);
await writeResults(RESULTS, collectResults(rows, sections));
process.stderr.write(`bench: wrote ${RESULTS.pathname}\n`);
