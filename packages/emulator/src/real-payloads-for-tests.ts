import { inCi } from '@genbot/test-servers';
import { type RealPayload, serviceRealPayloads } from './real-payloads.js';

/**
 * The payloads for a test that replays them, or undefined after one line saying the test is
 * skipped and why. Under CI a missing folder is an error: the replay tests must run there.
 */
export function realPayloadsForTests(
  options: { root?: string; env?: Readonly<Record<string, string | undefined>>; say?: (line: string) => void } = {},
): RealPayload[] | undefined {
  const { say = (line: string) => console.warn(line) } = options;
  const real = serviceRealPayloads(options.root);
  if (real.found) return real.payloads;
  if (inCi(options.env))
    throw new Error(`${real.dir} is missing: CI must have the shared folder beside the repository`);
  say(`Real payload replay skipped: ${real.dir} is missing (the shared folder goes beside the repository)`);
  return undefined;
}
