import type { OperatorSettings, SettingsFormField } from '@genbot/core/settings';
import { PermissionFlagsBits, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { parseGenbotOptions } from './genbot-command.js';
import { memberRights } from './member-rights.js';
import { parseSettingsFormId, parseSettingsOpenerId, settingsFormId, settingsOpenerId } from './settings-ids.js';
import { settingsModal } from './settings-modal.js';

function options(subcommand: string, values: Record<string, string> = {}) {
  return { getSubcommand: () => subcommand, getString: (name: string) => values[name] ?? null };
}

const operator: OperatorSettings = {
  chatModels: Array.from({ length: 30 }, (_, at) => `model-${at}`),
  imageModels: ['image-a'],
  chatModel: 'model-0',
  imageModel: 'image-a',
  systemPrompt: undefined,
  budgetImagesPerDay: undefined,
  budgetChatTokensPerDay: undefined,
};

describe('parseGenbotOptions', () => {
  it('reads each subcommand; scope server is the workspace level', () => {
    expect(parseGenbotOptions(options('show'))).toEqual({ kind: 'show' });
    expect(parseGenbotOptions(options('set', { name: 'images', value: '3', scope: 'server' }))).toEqual({
      kind: 'set',
      name: 'images',
      value: '3',
      level: 'workspace',
    });
    expect(parseGenbotOptions(options('reset', { name: 'enabled' }))).toEqual({
      kind: 'reset',
      name: 'enabled',
      level: 'channel',
    });
    expect(parseGenbotOptions(options('settings', { page: 'images' }))).toEqual({
      kind: 'form',
      level: 'channel',
      page: 'images',
    });
  });
});

describe('settings form ids', () => {
  it('name the part, level and channel, and read back only their own shape', () => {
    const target = { page: 'images', level: 'workspace', channelId: '123456789012345678' } as const;
    expect(parseSettingsFormId(settingsFormId(target))).toEqual(target);
    expect(parseSettingsOpenerId(settingsOpenerId(target))).toEqual(target);
    expect(parseSettingsFormId(settingsOpenerId(target))).toBeUndefined();
    for (const foreign of ['gbs:img:s:not-a-channel', 'gbs:img:x:1', 'gbs:other:c:1', 'gbs:img:c:1:extra', 'gbf:1:x']) {
      expect(parseSettingsFormId(foreign)).toBeUndefined();
    }
  });
});

describe('memberRights', () => {
  const rights = (bits: bigint[] | null, admins: string[] = []) =>
    memberRights('42', bits === null ? null : new PermissionsBitField(bits), admins);

  it('reads Manage Server as both levels, Manage Channels as the channel, a DM as none', () => {
    expect(rights([PermissionFlagsBits.ManageGuild])).toEqual({ channel: true, workspace: true });
    expect(rights([PermissionFlagsBits.ManageChannels])).toEqual({ channel: true, workspace: false });
    expect(rights([PermissionFlagsBits.Administrator])).toEqual({ channel: true, workspace: true });
    expect(rights([PermissionFlagsBits.SendMessages])).toEqual({ channel: false, workspace: false });
    expect(rights(null)).toEqual({ channel: false, workspace: false });
    expect(rights(null, ['42'])).toEqual({ channel: true, workspace: true });
  });
});

describe('settingsModal', () => {
  it('types a choice with more options than a select takes, naming them in the placeholder', () => {
    const field: SettingsFormField = {
      name: 'chat_model',
      kind: 'choice',
      choices: operator.chatModels,
      own: 'model-3',
      effective: 'model-3',
      from: 'channel',
    };
    const modal = settingsModal([field], { page: 'chat', level: 'channel', channelId: '1' }, operator);
    expect(modal.components).toHaveLength(2);
    expect(modal.components[1]).toMatchObject({
      type: 18,
      label: 'chat_model',
      description: 'Set here: model-3',
      component: { type: 4, custom_id: 'chat_model', value: 'model-3', required: false },
    });
  });
});
