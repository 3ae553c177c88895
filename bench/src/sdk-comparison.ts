/**
 * Our GenAiClient against the official SDKs, on the same emulator: messages
 * streaming against @anthropic-ai/sdk, image generate-content against
 * @google/genai. Each measured batch runs in a fresh process (see isolated.ts)
 * that imports only its own contender's library, on demand.
 */
import { runIsolated } from './isolated.js';
import { measureBatch, runConcurrently } from './measure.js';
import { interleavedRounds, type Contender } from './rounds.js';
import { median, percentile } from './stats.js';
import { row, type BenchContext, type Benchmark, type Row } from './suite.js';

const ROUNDS = 5;
const CHAT_MODEL = 'claude-sonnet-5';
const IMAGE_MODEL = 'gemini-3.1-flash-lite-image';

interface BatchInput extends BenchContext {
  contender: Contender;
}

// ---- messages streaming -------------------------------------------------------

const STREAM_REPLIES = 200;
const STREAM_CONCURRENCY = 10;
const STREAM_WARMUP = 30;
const SEQUENTIAL_REPLIES = 50;
const MAX_TOKENS = 1024;

/** About 20 text deltas a reply; the index varies the text, identically for both contenders. */
function chatPrompt(index: number): string {
  return `Benchmark reply ${index} [len:1000]`;
}

interface StreamedReply {
  firstDeltaMs: number;
  chars: number;
}

interface StreamingClient {
  reply(prompt: string): Promise<StreamedReply>;
  close(): Promise<void>;
}

async function ourStreamingClient({ emulatorUrl, apiKey }: BenchContext): Promise<StreamingClient> {
  const { GenAiClient } = await import('@genbot/core/genai');
  const client = new GenAiClient({ baseUrl: emulatorUrl, apiKey });
  return {
    async reply(prompt) {
      const started = performance.now();
      let firstDeltaMs: number | undefined;
      let chars = 0;
      const stream = client.streamMessage({
        model: CHAT_MODEL,
        max_tokens: MAX_TOKENS,
        messages: [{ role: 'user', content: prompt }],
      });
      for await (const text of stream.textDeltas()) {
        firstDeltaMs ??= performance.now() - started;
        chars += text.length;
      }
      return { firstDeltaMs: firstDeltaMs ?? Number.NaN, chars };
    },
    close: () => client.close(),
  };
}

async function anthropicStreamingClient({ emulatorUrl, apiKey }: BenchContext): Promise<StreamingClient> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  // The SDK's own default version is newer than the one the emulator (and our client) speaks.
  const client = new Anthropic({ apiKey, baseURL: emulatorUrl, defaultHeaders: { 'anthropic-version': '2023-06-01' } });
  return {
    async reply(prompt) {
      const started = performance.now();
      let firstDeltaMs: number | undefined;
      let chars = 0;
      const stream = client.messages.stream({
        model: CHAT_MODEL,
        max_tokens: MAX_TOKENS,
        messages: [{ role: 'user', content: prompt }],
      });
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta' && event.delta.text !== '') {
          firstDeltaMs ??= performance.now() - started;
          chars += event.delta.text.length;
        }
      }
      return { firstDeltaMs: firstDeltaMs ?? Number.NaN, chars };
    },
    close: async () => undefined,
  };
}

interface StreamingResult {
  concurrentFirstDeltaMs: number[];
  sequentialFirstDeltaMs: number[];
  wallMs: number;
  cpuMs: number;
  chars: number;
}

/** Runs in a child process: warm-up, sequential first-delta latency, then the measured concurrent batch. */
export async function messagesStreamingBatch(input: BatchInput): Promise<StreamingResult> {
  const client = await (input.contender === 'ours' ? ourStreamingClient(input) : anthropicStreamingClient(input));
  try {
    await runConcurrently(STREAM_WARMUP, STREAM_CONCURRENCY, (index) => client.reply(chatPrompt(index)));
    const sequential: number[] = [];
    for (let index = 0; index < SEQUENTIAL_REPLIES; index++)
      sequential.push((await client.reply(chatPrompt(index))).firstDeltaMs);
    const batch = await measureBatch(STREAM_REPLIES, STREAM_CONCURRENCY, (index) => client.reply(chatPrompt(index)));
    return {
      concurrentFirstDeltaMs: batch.results.map((reply) => reply.firstDeltaMs),
      sequentialFirstDeltaMs: sequential,
      wallMs: batch.wallMs,
      cpuMs: batch.cpuMs,
      chars: batch.results.reduce((sum, reply) => sum + reply.chars, 0),
    };
  } finally {
    await client.close();
  }
}

// ---- image generate-content ---------------------------------------------------

const IMAGE_CALLS = 50;
const IMAGE_CONCURRENCY = 5;
const IMAGE_WARMUP = 3;
/** One prompt throughout, so the emulator encodes the 4 MiB image once and serves it from its cache. */
const IMAGE_PROMPT = 'A benchmark picture [mb:4]';

interface ImageClient {
  /** The first image's bytes, decoded. */
  image(): Promise<Uint8Array>;
  close(): Promise<void>;
}

async function ourImageClient({ emulatorUrl, apiKey }: BenchContext): Promise<ImageClient> {
  const { GenAiClient } = await import('@genbot/core/genai');
  const client = new GenAiClient({ baseUrl: emulatorUrl, apiKey });
  return {
    async image() {
      const [first] = await client.generateImages(IMAGE_MODEL, { prompt: IMAGE_PROMPT });
      if (first === undefined) throw new Error('no image');
      return first.bytes;
    },
    close: () => client.close(),
  };
}

async function googleImageClient({ emulatorUrl, apiKey }: BenchContext): Promise<ImageClient> {
  const { GoogleGenAI } = await import('@google/genai');
  const ai = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: emulatorUrl } });
  return {
    async image() {
      const response = await ai.models.generateContent({
        model: IMAGE_MODEL,
        contents: IMAGE_PROMPT,
        config: { responseModalities: ['TEXT', 'IMAGE'] },
      });
      // The emulator, like the real service, sends a thought draft first: the SDK leaves skipping it to us.
      const data = response.candidates?.[0]?.content?.parts?.find(
        (part) => part.thought !== true && part.inlineData?.data !== undefined,
      )?.inlineData?.data;
      if (data === undefined) throw new Error('no image');
      return Buffer.from(data, 'base64');
    },
    close: async () => undefined,
  };
}

interface ImageResult {
  wallMs: number;
  cpuMs: number;
  peakRssGrowthMiB: number;
  peakRssMiB: number;
  bytes: number;
}

/** Runs in a child process: warm-up, then the measured batch. */
export async function imageBatch(input: BatchInput): Promise<ImageResult> {
  const client = await (input.contender === 'ours' ? ourImageClient(input) : googleImageClient(input));
  try {
    await runConcurrently(IMAGE_WARMUP, IMAGE_CONCURRENCY, () => client.image());
    const batch = await measureBatch(IMAGE_CALLS, IMAGE_CONCURRENCY, async () => (await client.image()).byteLength);
    return {
      wallMs: batch.wallMs,
      cpuMs: batch.cpuMs,
      peakRssGrowthMiB: batch.peakRssGrowthMiB,
      peakRssMiB: batch.peakRssMiB,
      bytes: batch.results.reduce((sum, bytes) => sum + bytes, 0),
    };
  } finally {
    await client.close();
  }
}

// ---- the rows -------------------------------------------------------------------

/** Both contenders must have done the same work, or the comparison means nothing. */
function assertSameWork(what: string, ours: number[], baseline: number[]): void {
  const all = [...ours, ...baseline];
  if (all.some((value) => value !== all[0]))
    throw new Error(`${what} differs between runs: ours ${ours.join(',')}, SDK ${baseline.join(',')}`);
}

function medianRow<T>(name: string, unit: string, results: Record<Contender, T[]>, metric: (result: T) => number): Row {
  return row(name, unit, median(results.ours.map(metric)), median(results.baseline.map(metric)));
}

const messagesStreaming: Benchmark = {
  name: 'messages streaming: GenAiClient vs @anthropic-ai/sdk',
  async run(context) {
    const results = await interleavedRounds(ROUNDS, (contender) =>
      runIsolated<StreamingResult>(import.meta.url, 'messagesStreamingBatch', {
        ...context,
        contender,
      } satisfies BatchInput),
    );
    assertSameWork(
      'streamed text',
      results.ours.map((r) => r.chars),
      results.baseline.map((r) => r.chars),
    );
    const prefix = `stream ${STREAM_REPLIES}x, ${STREAM_CONCURRENCY} at a time`;
    return [
      medianRow(`${prefix}: first delta p50`, 'ms', results, (r) => percentile(r.concurrentFirstDeltaMs, 50)),
      medianRow(`${prefix}: first delta p99`, 'ms', results, (r) => percentile(r.concurrentFirstDeltaMs, 99)),
      medianRow(`${prefix}: wall time`, 'ms', results, (r) => r.wallMs),
      medianRow(`${prefix}: CPU time`, 'ms', results, (r) => r.cpuMs),
      medianRow(`stream ${SEQUENTIAL_REPLIES}x sequential: first delta p50`, 'ms', results, (r) =>
        percentile(r.sequentialFirstDeltaMs, 50),
      ),
      medianRow(`stream ${SEQUENTIAL_REPLIES}x sequential: first delta p99`, 'ms', results, (r) =>
        percentile(r.sequentialFirstDeltaMs, 99),
      ),
    ];
  },
};

const imageGeneration: Benchmark = {
  name: 'generate-content 4 MiB image: GenAiClient vs @google/genai',
  async run(context) {
    const results = await interleavedRounds(ROUNDS, (contender) =>
      runIsolated<ImageResult>(import.meta.url, 'imageBatch', { ...context, contender } satisfies BatchInput),
    );
    assertSameWork(
      'image bytes',
      results.ours.map((r) => r.bytes),
      results.baseline.map((r) => r.bytes),
    );
    const prefix = `image 4 MiB ${IMAGE_CALLS}x, ${IMAGE_CONCURRENCY} at a time`;
    return [
      medianRow(`${prefix}: wall time`, 'ms', results, (r) => r.wallMs),
      medianRow(`${prefix}: CPU time`, 'ms', results, (r) => r.cpuMs),
      medianRow(`${prefix}: peak RSS growth`, 'MiB', results, (r) => r.peakRssGrowthMiB),
      medianRow(`${prefix}: peak RSS`, 'MiB', results, (r) => r.peakRssMiB),
    ];
  },
};

export const sdkComparison: Benchmark[] = [messagesStreaming, imageGeneration];
