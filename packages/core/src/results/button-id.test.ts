import { describe, expect, it } from 'vitest';
import { versionRef } from '../store/index.js';
import { buttonId, parseButtonId } from './button-id.js';
import { resultButtons } from './result-buttons.js';

describe('button ids', () => {
  it('are short, name no prompt, and read back to the action and version', () => {
    const ref = versionRef('slack-cmd-1234.5678.abcdef', 0);
    const id = buttonId('vary', ref);
    expect(id).toMatch(/^gb1:v:[A-Za-z0-9_-]{16}$/);
    expect(id.length).toBeLessThanOrEqual(100);
    expect(parseButtonId(id)).toEqual({ action: 'vary', ref });
    for (const action of ['reroll', 'vary', 'edit', 'undo'] as const) {
      expect(parseButtonId(buttonId(action, ref))?.action).toBe(action);
    }
  });

  it('name the edit form on Edit buttons (the version, or the image of several), and nowhere else', () => {
    const ref = versionRef('job', 0);
    expect(buttonId('edit', ref, { version: 12 })).toBe(`gb1:e:${ref}:v12`);
    expect(parseButtonId(`gb1:e:${ref}:v12`)).toEqual({ action: 'edit', ref, formName: { version: 12 } });
    expect(parseButtonId(`gb1:e:${ref}:i2`)).toEqual({ action: 'edit', ref, formName: { image: 2 } });
    expect(buttonId('vary', ref, { version: 2 })).toBe(`gb1:v:${ref}`);
    for (const forged of [`gb1:v:${ref}:v2`, `gb1:e:${ref}:v0`, `gb1:e:${ref}:x2`, `gb1:e:${ref}:v`, `gb1:e:${ref}:`]) {
      expect(parseButtonId(forged), forged).toBeUndefined();
    }
  });

  it('refuse what this bot did not make', () => {
    const ref = versionRef('job', 1);
    for (const forged of [
      '',
      'gb1',
      `gb1:x:${ref}`,
      `gb2:v:${ref}`,
      'gb1:v:short',
      `gb1:v:${ref}:extra`,
      `gb1:v:${ref}!`,
    ]) {
      expect(parseButtonId(forged)).toBeUndefined();
    }
  });

  it('differ per version and stay the same for one (any process, after a restart)', () => {
    expect(versionRef('job', 0)).toBe(versionRef('job', 0));
    expect(versionRef('job', 0)).not.toBe(versionRef('job', 1));
    expect(versionRef('job', 1)).not.toBe(versionRef('job1', 0));
  });
});

describe('resultButtons', () => {
  it('gives one image Re-roll, Vary and Edit, and Undo when it was made from a version', () => {
    const plain = resultButtons({ jobId: 'j', firstIndex: 0, count: 1, reroll: true, undo: false });
    expect(plain.map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit']);
    const edited = resultButtons({ jobId: 'j', firstIndex: 0, count: 1, reroll: true, undo: true });
    expect(edited.map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
    expect(edited.map((button) => parseButtonId(button.id))).toEqual([
      { action: 'reroll', ref: versionRef('j', 0) },
      { action: 'vary', ref: versionRef('j', 0) },
      { action: 'edit', ref: versionRef('j', 0) },
      { action: 'undo', ref: versionRef('j', 0) },
    ]);
  });

  it('numbers Vary and Edit with several images, each pointing at its own version', () => {
    const buttons = resultButtons({ jobId: 'j', firstIndex: 2, count: 2, reroll: true, undo: false });
    expect(buttons.map((button) => button.label)).toEqual(['Re-roll', 'Vary 1', 'Vary 2', 'Edit 1', 'Edit 2']);
    expect(parseButtonId(buttons[2]?.id ?? '')?.ref).toBe(versionRef('j', 3));
    expect(parseButtonId(buttons[0]?.id ?? '')?.ref).toBe(versionRef('j', 2));
    expect(new Set(buttons.map((button) => button.id)).size).toBe(buttons.length);
  });

  it('titles a lone image’s Edit form with its version, and each of several images’ with its place', () => {
    const [lone] = resultButtons({ jobId: 'j', firstIndex: 0, count: 1, reroll: false, undo: false, numbers: [3] })
      .filter((button) => button.action === 'edit')
      .map((button) => parseButtonId(button.id)?.formName);
    expect(lone).toEqual({ version: 3 });
    const several = resultButtons({ jobId: 'j', firstIndex: 0, count: 2, reroll: true, undo: false, numbers: [1, 1] })
      .filter((button) => button.action === 'edit')
      .map((button) => parseButtonId(button.id)?.formName);
    expect(several).toEqual([{ image: 1 }, { image: 2 }]);
  });

  it('leaves out Re-roll when the request cannot be made again', () => {
    const buttons = resultButtons({ jobId: 'j', firstIndex: 0, count: 1, reroll: false, undo: false });
    expect(buttons.map((button) => button.label)).toEqual(['Vary', 'Edit']);
  });
});
