import { once } from 'node:events';
import { forkBenchChild } from './child-process.js';

export interface EmulatorProcess {
  url: string;
  close(): Promise<void>;
}

export async function startEmulatorProcess(options: {
  apiKey: string;
  streamDelayMs: number;
}): Promise<EmulatorProcess> {
  const child = forkBenchChild(new URL('./emulator-process.ts', import.meta.url), [
    options.apiKey,
    String(options.streamDelayMs),
  ]);
  const { url } = (await child.message) as { url: string };
  return {
    url,
    close: async () => {
      const exited = once(child.process, 'exit');
      child.process.disconnect();
      await exited;
    },
  };
}
