import type { GenAiClientOptions } from '@genbot/core/genai';

/**
 * The service client's limits in the fault suite, the bots' and the oracle's
 * alike: tight enough that a stream with no content or without end, or an
 * answer past the cap, ends within a row's time (the defaults are a minute,
 * ten minutes and 32 MiB); loose enough for every other row's service.
 */
export const SERVICE_LIMITS = {
  textTimeoutMs: 5_000,
  streamTimeoutMs: 10_000,
  maxResponseBytes: 4 * 1024 * 1024,
} satisfies Pick<GenAiClientOptions, 'textTimeoutMs' | 'streamTimeoutMs' | 'maxResponseBytes'>;
