import { defineConfig } from 'vitest/config';

// End-to-end tests start real servers and real platform libraries: give them
// room on a noisy 2-core machine, and run files one at a time so ports and
// CPU are not fought over.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
