import { describe, expect, it } from 'vitest';
import { mentionedUserIds, plainText } from './mentions.js';

const names = new Map([
  ['U1', 'alice'],
  ['U2', 'bob'],
]);

describe('plainText', () => {
  it('removes the bot mention wherever it is', () => {
    expect(plainText('<@UBOT> draw a cat', 'UBOT', names)).toBe('draw a cat');
    expect(plainText('hi <@UBOT> draw a cat', 'UBOT', names)).toBe('hi draw a cat');
    expect(plainText('thanks <@UBOT|genbot>', 'UBOT', names)).toBe('thanks');
  });

  it('turns other mentions into @name', () => {
    expect(plainText('<@UBOT> ask <@U2> and <@U1|alice-x>', 'UBOT', names)).toBe('ask @bob and @alice-x');
    expect(plainText('ping <@U9>', 'UBOT', names)).toBe('ping @U9');
  });

  it('makes channels, specials and links readable and undoes escapes', () => {
    expect(plainText('<#C1|general> <!here> <!subteam^S1|@devs>', 'UBOT', names)).toBe('#general @here @devs');
    expect(plainText('<https://x.example|site> and <https://y.example>', 'UBOT', names)).toBe(
      'site (https://x.example) and https://y.example',
    );
    expect(plainText('a &lt; b &amp;&amp; c &gt; d', 'UBOT', names)).toBe('a < b && c > d');
  });

  it('keeps line breaks', () => {
    expect(plainText('<@UBOT> first\nsecond', 'UBOT', names)).toBe('first\nsecond');
  });
});

describe('mentionedUserIds', () => {
  it('lists every mentioned user', () => {
    expect(mentionedUserIds('<@UBOT> ask <@U2> and <@U1|a>')).toEqual(['UBOT', 'U2', 'U1']);
  });
});
