import type { Logger } from '@genbot/core/log';
import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';

function toBoltLevel(level: string): LogLevel {
  if (level === 'debug' || level === 'trace') return LogLevel.DEBUG;
  if (level === 'info') return LogLevel.INFO;
  if (level === 'warn') return LogLevel.WARN;
  return LogLevel.ERROR;
}

/** Bolt, its web client and Socket Mode log through pino (and its redaction), never to the console. */
export function boltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ component: 'bolt' });
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...parts: unknown[]): void => {
      const error = parts.find((part): part is Error => part instanceof Error);
      const text = parts
        .filter((part) => part !== error)
        .map((part) => (typeof part === 'string' ? part : JSON.stringify(part)))
        .join(' ');
      if (error === undefined) log[level](text);
      else log[level]({ err: error }, text);
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    // The level is pino's, set by LOG_LEVEL; Bolt asks for it and may try to set it.
    setLevel: () => undefined,
    getLevel: () => toBoltLevel(log.level),
    setName: () => undefined,
  };
}
