/** Every registered benchmark, in the order `pnpm bench` runs them. To add rows, add a Benchmark here. */
import { chatBurst } from './chat-burst.js';
import { chatImagine } from './chat-imagine.js';
import { chatLatency } from './chat-latency.js';
import { sdkComparison } from './sdk-comparison.js';
import type { Benchmark } from './suite.js';
import { uploadFloor } from './upload-floor.js';

export const BENCHMARKS: readonly Benchmark[] = [...sdkComparison, chatLatency, chatBurst, chatImagine, uploadFloor];

export const API_KEY = 'bench-key';
