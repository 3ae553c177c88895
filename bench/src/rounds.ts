export type Contender = 'ours' | 'baseline';

/**
 * Measures both contenders `rounds` times, alternating which goes first, so
 * drift on a noisy machine (thermal, neighbours) falls on both alike.
 */
export async function interleavedRounds<T>(
  rounds: number,
  measure: (contender: Contender, round: number) => Promise<T>,
): Promise<Record<Contender, T[]>> {
  const results: Record<Contender, T[]> = { ours: [], baseline: [] };
  for (let round = 0; round < rounds; round++) {
    const order: Contender[] = round % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
    for (const contender of order) results[contender].push(await measure(contender, round));
  }
  return results;
}
