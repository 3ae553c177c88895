/**
 * Dev tool: runs the registered benchmarks whose name contains NAME
 * (case-insensitive) against a fresh emulator and prints their rows, without
 * touching bench/results.json.
 *
 *   pnpm exec tsx bench/src/run-one.ts imagine
 *   pnpm exec tsx bench/src/run-one.ts imagine --repeat 3
 *
 * Without NAME it lists the benchmark names. Flags such as --cpu-prof given to
 * node stay with this process (children are forked without them); see
 * child-process.ts.
 */
import { API_KEY, BENCHMARKS } from './benchmarks.js';
import { startEmulatorProcess } from './emulator.js';
import { formatTable } from './report.js';
import type { Row } from './suite.js';

const args = process.argv.slice(2);
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt === -1 ? 1 : Number(args.splice(repeatAt, 2)[1]);
const name = args[0];
if (name === undefined || !Number.isInteger(repeat) || repeat < 1) {
  process.stderr.write(
    `usage: tsx bench/src/run-one.ts NAME [--repeat N]\nbenchmarks:\n${BENCHMARKS.map((b) => `  ${b.name}`).join('\n')}\n`,
  );
  process.exit(name === undefined ? 0 : 2);
}
const chosen = BENCHMARKS.filter((benchmark) => benchmark.name.toLowerCase().includes(name.toLowerCase()));
if (chosen.length === 0) {
  process.stderr.write(`run-one: no benchmark name contains "${name}"\n`);
  process.exit(2);
}

const emulator = await startEmulatorProcess({ apiKey: API_KEY, streamDelayMs: 0 });
try {
  for (let run = 1; run <= repeat; run++) {
    const rows: Row[] = [];
    for (const benchmark of chosen) {
      const started = performance.now();
      process.stderr.write(`run-one: ${benchmark.name} (run ${String(run)}/${String(repeat)}) ...\n`);
      rows.push(...(await benchmark.run({ emulatorUrl: emulator.url, apiKey: API_KEY })));
      process.stderr.write(`run-one: done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
    process.stdout.write(`${formatTable(rows)}\n`);
  }
} finally {
  await emulator.close();
}
