/** Every registered benchmark, in the order `pnpm bench` runs them. To add rows, add a Benchmark here. */
import { chatBurst } from './chat-burst.js';
import { chatImagine } from './chat-imagine.js';
import { chatLatency } from './chat-latency.js';
import { conversation } from './conversation.js';
import { hostile } from './hostile.js';
import { sdkComparison } from './sdk-comparison.js';
import { peerBurst } from './peer-burst.js';
import { peerDmBurst } from './peer-dm-burst.js';
import { peerLatency } from './peer-latency.js';
import { queueThroughput } from './queue-throughput.js';
import { scaleOut } from './scale-out.js';
import { storeLatency } from './store-latency.js';
import { storeOverhead } from './store-overhead.js';
import { threadReads } from './thread-reads.js';
import type { Benchmark } from './suite.js';
import { uploadFloor } from './upload-floor.js';

export const BENCHMARKS: readonly Benchmark[] = [
  ...sdkComparison,
  chatLatency,
  chatBurst,
  peerLatency,
  peerBurst,
  peerDmBurst,
  chatImagine,
  uploadFloor,
  conversation,
  storeLatency,
  storeOverhead,
  threadReads,
  queueThroughput,
  scaleOut,
  hostile,
];

export const API_KEY = 'bench-key';
