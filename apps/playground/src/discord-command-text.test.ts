import { describe, expect, it } from 'vitest';
import { commandFromText } from './discord-command-text.js';

const scope = {
  type: 3,
  name: 'scope',
  choices: [
    { name: 'channel', value: 'channel' },
    { name: 'server', value: 'server' },
  ],
};
const settingName = {
  type: 3,
  name: 'name',
  required: true,
  choices: ['images', 'chat_model', 'system_prompt'].map((value) => ({ name: value, value })),
};
/** The shape of /genbot as the bot registers it. */
const genbot = {
  name: 'genbot',
  options: [
    {
      type: 1,
      name: 'settings',
      options: [
        scope,
        {
          type: 3,
          name: 'page',
          choices: [
            { name: 'chat', value: 'chat' },
            { name: 'images', value: 'images' },
          ],
        },
      ],
    },
    { type: 1, name: 'show', options: [] },
    { type: 1, name: 'set', options: [settingName, { type: 3, name: 'value', required: true }, scope] },
    { type: 1, name: 'reset', options: [settingName, scope] },
  ],
};

describe('a Discord command typed in the composer', () => {
  it('takes named options, a value running to the next name', () => {
    expect(commandFromText(genbot, 'set name:chat_model value:claude large scope:server')).toEqual({
      subcommand: 'set',
      options: { name: 'chat_model', value: 'claude large', scope: 'server' },
    });
  });

  it('takes them unnamed too: a free value runs to the end, save a last word an option after it chooses', () => {
    expect(commandFromText(genbot, 'set system_prompt Be brief and kind')).toEqual({
      subcommand: 'set',
      options: { name: 'system_prompt', value: 'Be brief and kind' },
    });
    expect(commandFromText(genbot, 'set chat_model claude-opus-5 server').options).toEqual({
      name: 'chat_model',
      value: 'claude-opus-5',
      scope: 'server',
    });
    expect(commandFromText(genbot, 'settings images')).toEqual({ subcommand: 'settings', options: { page: 'images' } });
    expect(commandFromText(genbot, 'show')).toEqual({ subcommand: 'show', options: {} });
  });

  it('refuses what Discord’s client would not send, saying what it takes', () => {
    expect(() => commandFromText(genbot, '')).toThrow('/genbot takes one of: settings, show, set, reset');
    expect(() => commandFromText(genbot, 'set images')).toThrow('/genbot set needs value: /genbot set name:… value:…');
    expect(() => commandFromText(genbot, 'set name:colour value:blue')).toThrow(
      '/genbot set: name is one of images, chat_model, system_prompt.',
    );
  });

  it('types numbers and booleans as the option asks', () => {
    const command = {
      name: 'n',
      options: [
        { type: 4, name: 'count' },
        { type: 5, name: 'on' },
      ],
    };
    expect(commandFromText(command, 'count:3 on:true')).toEqual({ options: { count: 3, on: true } });
    expect(() => commandFromText(command, 'count:2.5')).toThrow('takes a number');
  });
});
