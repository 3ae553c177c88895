import { describe, expect, it } from 'vitest';
import { humanLine } from './pretty-lines.js';

describe('humanLine', () => {
  it('puts the context after the message as key=value words, nested keys dotted, spaced values quoted', () => {
    const log = {
      level: 30,
      time: 1,
      pid: 7,
      hostname: 'vm',
      msg: 'genbot started',
      bots: ['Slack: Socket Mode', 'Discord'],
      service: { url: 'http://127.0.0.1:9', emulated: true },
      note: '',
      retries: 0,
    };
    expect(humanLine(log, 'msg')).toBe(
      'genbot started bots.0="Slack: Socket Mode" bots.1=Discord service.url=http://127.0.0.1:9 service.emulated=true note="" retries=0',
    );
  });

  it("shows an error's stack on the lines below, and what else it carries as fields", () => {
    const err = {
      type: 'ServiceError',
      message: 'overloaded',
      stack: 'ServiceError: overloaded\n    at call (client.ts:1:1)',
      status: 529,
    };
    expect(humanLine({ msg: 'stream failed', err }, 'msg')).toBe(
      'stream failed err.status=529\n    ServiceError: overloaded\n        at call (client.ts:1:1)',
    );
  });
});
