import { ASPECT_RATIOS } from '@genbot/core/genai';
import { describe, expect, it } from 'vitest';
import { allCommands, imagineCommand, parseImagineOptions } from './commands.js';

function options(values: Record<string, string>) {
  return { getString: (name: string) => values[name] ?? null };
}

describe('imagineCommand', () => {
  it('defines a required prompt and the aspect ratios as choices', () => {
    const command = imagineCommand();
    expect(command.name).toBe('imagine');
    const [prompt, aspectRatio] = command.options ?? [];
    expect(prompt).toMatchObject({ name: 'prompt', type: 3, required: true, max_length: 2000 });
    expect(aspectRatio).toMatchObject({ name: 'aspect_ratio', type: 3 });
    expect(aspectRatio && 'required' in aspectRatio ? aspectRatio.required : false).toBeFalsy();
    const choices = aspectRatio && 'choices' in aspectRatio ? aspectRatio.choices : undefined;
    expect(choices?.map((choice) => choice.value)).toEqual([...ASPECT_RATIOS]);
  });
});

describe('allCommands', () => {
  it('registers Edit image as a message command beside /imagine and /usage, and /genbot', () => {
    expect(allCommands().map((command) => [command.name, command.type ?? 1])).toEqual([
      ['imagine', 1],
      ['usage', 1],
      ['Edit image', 3],
      ['genbot', 1],
    ]);
  });

  it('offers every global command but /genbot to server and user installs, in servers and all DMs', () => {
    for (const command of allCommands().filter((each) => each.name !== 'genbot')) {
      expect(command).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
    }
  });

  it('offers /genbot to server installs only, in servers and the bot DM, with no permission hint', () => {
    const genbot = allCommands().find((command) => command.name === 'genbot');
    expect(genbot).toMatchObject({ integration_types: [0], contexts: [0, 1] });
    expect(genbot?.default_member_permissions).toBeUndefined();
    const subcommands = genbot && 'options' in genbot ? (genbot.options ?? []) : [];
    expect(subcommands.map((sub) => [sub.name, sub.type])).toEqual([
      ['settings', 1],
      ['show', 1],
      ['set', 1],
      ['reset', 1],
    ]);
  });

  it('leaves installs and contexts out of guild commands, where Discord does not read them', () => {
    for (const command of allCommands('guild')) {
      expect(command.integration_types).toBeUndefined();
      expect(command.contexts).toBeUndefined();
    }
  });
});

describe('parseImagineOptions', () => {
  it('reads the prompt and the aspect ratio', () => {
    expect(parseImagineOptions(options({ prompt: 'a fox', aspect_ratio: '16:9' }))).toEqual({
      prompt: 'a fox',
      aspectRatio: '16:9',
    });
  });

  it('leaves the aspect ratio out when not given', () => {
    expect(parseImagineOptions(options({ prompt: 'a fox' }))).toEqual({ prompt: 'a fox' });
  });

  it('turns a missing prompt into an empty one for core to answer', () => {
    expect(parseImagineOptions(options({}))).toEqual({ prompt: '' });
  });

  it('reads --ar typed inside the prompt as the aspect ratio, as on Slack', () => {
    expect(parseImagineOptions(options({ prompt: 'a wide beach --ar 21:9 at noon' }))).toEqual({
      prompt: 'a wide beach at noon',
      aspectRatio: '21:9',
    });
    expect(parseImagineOptions(options({ prompt: 'a fox --ar=9:16' }))).toEqual({
      prompt: 'a fox',
      aspectRatio: '9:16',
    });
  });

  it('prefers the aspect_ratio option over --ar in the prompt, and never sends the flag on', () => {
    expect(parseImagineOptions(options({ prompt: 'a fox --ar 21:9', aspect_ratio: '1:1' }))).toEqual({
      prompt: 'a fox',
      aspectRatio: '1:1',
    });
  });

  it('drops a bare --ar, leaving the default ratio', () => {
    expect(parseImagineOptions(options({ prompt: 'a fox --ar' }))).toEqual({ prompt: 'a fox' });
  });
});
