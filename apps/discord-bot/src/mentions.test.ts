import { describe, expect, it } from 'vitest';
import { plainText, type MentionNames } from './mentions.js';

const names: MentionNames = {
  user: (id) => ({ '222': 'ada' })[id],
  role: (id) => ({ '333': 'mods' })[id],
  channel: (id) => ({ '444': 'general' })[id],
};

describe('plainText', () => {
  it('removes the bot mention in both forms', () => {
    expect(plainText('<@111> hello', '111', names)).toBe('hello');
    expect(plainText('hi <@!111>, how are you', '111', names)).toBe('hi , how are you');
  });

  it('names other users, roles and channels', () => {
    expect(plainText('<@111> ask <@222> and <@&333> in <#444>', '111', names)).toBe('ask @ada and @mods in #general');
  });

  it('never leaks a raw snowflake for unknown ids', () => {
    expect(plainText('<@111> ping <@!999> <@&998> <#997>', '111', names)).toBe(
      'ping @unknown-user @unknown-role #unknown-channel',
    );
  });

  it('keeps line breaks and code intact', () => {
    expect(plainText('<@111> fix this:\n```\nconst a  = 1;\n```', '111', names)).toBe(
      'fix this:\n```\nconst a  = 1;\n```',
    );
  });
});
