import type { createLogger } from '@genbot/core';

/** The core's pino logger type, named here because pino itself is the core's dependency, not ours. */
export type Logger = ReturnType<typeof createLogger>;
