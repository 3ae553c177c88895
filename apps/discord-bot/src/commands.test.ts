import { ASPECT_RATIOS } from '@genbot/core';
import { describe, expect, it } from 'vitest';
import { imagineCommand, parseImagineOptions } from './commands.js';

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
});
