import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { missesTarget, type Row } from './suite.js';

export interface Results {
  date: string;
  node: string;
  machine: { cpus: number; mem: number };
  /** Wall time of each benchmark, in run order: what keeps `pnpm bench` under its 10 minutes. */
  sections: SectionTime[];
  rows: Row[];
}

export interface SectionTime {
  name: string;
  seconds: number;
}

export function collectResults(rows: Row[], sections: SectionTime[]): Results {
  return {
    date: new Date().toISOString(),
    node: process.version,
    // mem in bytes.
    machine: { cpus: os.availableParallelism(), mem: os.totalmem() },
    sections,
    rows,
  };
}

function cells(values: string[], widths: number[]): string {
  return values.map((value, i) => (i === 0 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0))).join('  ');
}

function targetCell(r: Row): string {
  if (r.target !== undefined) return `<= ${r.target.toFixed(1)}x`;
  return r.max === undefined ? '-' : `<= ${r.max} ${r.unit}`;
}

/** A plain-text table; rows that miss their target are marked. */
export function formatTable(rows: Row[]): string {
  const header = ['row', 'ours', 'baseline', 'ours/base', 'target'];
  const body = rows.map((r) => [
    r.name,
    `${r.ours.toFixed(1)} ${r.unit}`,
    `${r.baseline.toFixed(1)} ${r.unit}`,
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}x` : '-',
    `${targetCell(r)}${missesTarget(r) ? ' !' : ''}`,
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((line) => (line[i] ?? '').length)));
  return [
    cells(header, widths),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...body.map((line) => cells(line, widths)),
  ].join('\n');
}

export async function writeResults(path: URL, results: Results): Promise<void> {
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
