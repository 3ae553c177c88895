import { describe, expect, it } from 'vitest';
import { toMrkdwn } from './mrkdwn.js';

describe('toMrkdwn', () => {
  it.each([
    ['**bold** and __bold__', '*bold* and *bold*'],
    ['*italic* and _italic_', '_italic_ and _italic_'],
    ['~~gone~~', '~gone~'],
    ['see [the docs](https://example.com/a?b=1&c=2)', 'see <https://example.com/a?b=1&amp;c=2|the docs>'],
    ['![a cat](https://example.com/cat.png)', '<https://example.com/cat.png|a cat>'],
    ['<https://example.com>', '<https://example.com>'],
    ['# Title', '*Title*'],
    ['### **Loud** title ###', '*Loud title*'],
    ['- one\n- two', '- one\n- two'],
    ['* one\n+ two', '- one\n- two'],
    ['1. first\n2. second', '1. first\n2. second'],
    ['a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
    ['> quoted **text**', '> quoted *text*'],
    ['use `a < b && *x*` here', 'use `a < b && *x*` here'],
    ['2 * 3 * 4', '2 * 3 * 4'],
    ['snake_case_name stays', 'snake_case_name stays'],
    ['plain text.', 'plain text.'],
  ])('%j -> %j', (markdown, mrkdwn) => {
    expect(toMrkdwn(markdown)).toBe(mrkdwn);
  });

  it('leaves code blocks as written, whatever they contain', () => {
    const markdown = ['**before**', '```ts', 'const x = a < b && **c**;', '# not a heading', '```', '**after**'].join(
      '\n',
    );
    expect(toMrkdwn(markdown)).toBe(
      ['*before*', '```ts', 'const x = a < b && **c**;', '# not a heading', '```', '*after*'].join('\n'),
    );
  });

  it('keeps a block open until its own closing fence', () => {
    const markdown = ['````', '```', '**in**', '````', '**out**'].join('\n');
    expect(toMrkdwn(markdown)).toBe(['````', '```', '**in**', '````', '*out*'].join('\n'));
  });

  it('keeps an unclosed block untouched to the end', () => {
    expect(toMrkdwn('```\n<b> & **x**')).toBe('```\n<b> & **x**');
  });

  it('does not let a link label end the link early', () => {
    expect(toMrkdwn('[a|b > c](https://x.example)')).toBe('<https://x.example|a¦b &gt; c>');
  });
});
