import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startEmulator } from './server.js';

const USAGE =
  'usage: main.ts [--host H] [--port N] [--prefix /path] [--api-key KEY] [--relax-credentials] [--stream-delay MS]';

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number, got "${value}"\n${USAGE}`);
  return Number.parseInt(value, 10);
}

const { values } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    prefix: { type: 'string' },
    'api-key': { type: 'string' },
    'relax-credentials': { type: 'boolean' },
    'stream-delay': { type: 'string' },
  },
  strict: true,
});

// stdout carries only the URL, so scripts can read it; logs go to stderr.
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2));
const emulator = await startEmulator({
  host: values.host,
  port: wholeNumber('port', values.port),
  pathPrefix: values.prefix,
  apiKey: values['api-key'],
  relaxCredentials: values['relax-credentials'],
  streamDelayMs: wholeNumber('stream-delay', values['stream-delay']),
  // Nobody reads the log of a standalone emulator; it would only grow.
  recordRequests: false,
  logger,
});
process.stdout.write(`${emulator.url}\n`);
logger.info({ url: emulator.url }, 'content-generation emulator listening');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
