import { UsageError } from '@genbot/core/errors';
import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.js';

describe('parseCommand', () => {
  it('parses chat with every option', () => {
    expect(
      parseCommand([
        'chat',
        'hi there',
        '--model',
        'm',
        '--system',
        'be brief',
        '--max-tokens',
        '64',
        '--file',
        'a.png',
        '--file',
        'notes.md',
      ]),
    ).toEqual({
      kind: 'chat',
      prompt: 'hi there',
      model: 'm',
      system: 'be brief',
      maxTokens: 64,
      files: ['a.png', 'notes.md'],
    });
  });

  it('defaults chat to 1024 max tokens and no files, and joins unquoted words', () => {
    expect(parseCommand(['chat', 'hello', 'world'])).toMatchObject({
      prompt: 'hello world',
      maxTokens: 1024,
      files: [],
    });
  });

  it('parses imagine and edit with their defaults', () => {
    expect(parseCommand(['imagine', 'a cat', '--ar', '16:9'])).toEqual({
      kind: 'imagine',
      prompt: 'a cat',
      aspectRatio: '16:9',
      outDir: '.',
      model: undefined,
    });
    expect(parseCommand(['edit', 'in.png', 'make it gray', '--out', 'outs'])).toEqual({
      kind: 'edit',
      imagePath: 'in.png',
      instruction: 'make it gray',
      aspectRatio: undefined,
      outDir: 'outs',
      model: undefined,
    });
  });

  it('takes a prompt that starts with a dash after --', () => {
    expect(parseCommand(['text', '--', '-5 degrees?'])).toMatchObject({ kind: 'text', prompt: '-5 degrees?' });
  });

  it('answers help for the tool and for each command', () => {
    expect(parseCommand(['--help'])).toMatchObject({ kind: 'help', text: expect.stringContaining('genbot <command>') });
    expect(parseCommand(['imagine', '--help'])).toMatchObject({
      kind: 'help',
      text: expect.stringContaining('--ar W:H'),
    });
  });

  it.each([
    [[]],
    [['paint', 'x']],
    [['text']],
    [['chat', '   ']],
    [['text', 'hi', '--frobnicate']],
    [['chat', 'hi', '--model']],
    [['chat', 'hi', '--max-tokens', '0']],
    [['chat', 'hi', '--max-tokens', '12abc']],
    [['chat', 'hi', '--file']],
    [['chat', 'hi', '--file', '']],
    [['text', 'hi', '--file', 'a.png']],
    [['imagine', 'cat', '--ar', '7:3']],
    [['imagine', 'cat', '--out', '']],
    [['edit', 'in.png']],
    [['text', 'hi', '--ar', '1:1']],
  ])('rejects %j as a usage error', (argv) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
  });
});
