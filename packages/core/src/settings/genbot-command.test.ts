import { describe, expect, it } from 'vitest';
import type {
  JsonValue,
  ScopedValues,
  SettingChange,
  SettingPlace,
  SettingScope,
  SettingsStore,
} from '../store/index.js';
import type { OperatorSettings } from './catalogue.js';
import { type GenbotContext, parseGenbotText, runGenbot } from './genbot-command.js';
import { PlaceSettings, type SettingsPlace } from './place-settings.js';
import { settingsForm, submitSettingsForm } from './settings-form.js';

const operator: OperatorSettings = {
  chatModels: ['chat-a', 'chat-b'],
  imageModels: ['image-a', 'image-b'],
  chatModel: 'chat-a',
  imageModel: 'image-a',
  systemPrompt: undefined,
  budgetImagesPerDay: 100,
  budgetChatTokensPerDay: undefined,
};

/** The store port in memory, with a count of reads so the cache can be seen. */
class MemorySettings implements SettingsStore {
  readonly rows = new Map<string, { scope: SettingScope; name: string; value: JsonValue }>();
  readonly log: SettingChange[] = [];
  reads = 0;
  #key = (scope: SettingScope, name: string) =>
    [scope.platform, scope.workspaceId ?? '', scope.level, scope.level === 'channel' ? scope.channelId : '', name].join(
      '|',
    );
  async get(scope: SettingScope, name: string) {
    return this.rows.get(this.#key(scope, name))?.value;
  }
  async put(scope: SettingScope, name: string, value: JsonValue) {
    this.rows.set(this.#key(scope, name), { scope, name, value });
  }
  async delete(scope: SettingScope, name: string) {
    this.rows.delete(this.#key(scope, name));
  }
  async place(where: SettingPlace) {
    this.reads += 1;
    const values: Record<string, ScopedValues> = {};
    for (const { scope, name, value } of this.rows.values()) {
      if (scope.platform !== where.platform || (scope.workspaceId ?? '') !== (where.workspaceId ?? '')) continue;
      if (scope.level === 'channel' && scope.channelId !== where.channelId) continue;
      if (scope.level === 'user') continue;
      values[name] = { ...values[name], [scope.level]: value };
    }
    return values;
  }
  async change(scope: SettingScope, name: string, value: JsonValue | undefined, by: string) {
    const previous = await this.get(scope, name);
    if (value === undefined) await this.delete(scope, name);
    else await this.put(scope, name, value);
    const change = { scope, name, previous, value, by, at: new Date('2026-11-29T10:00:00Z') };
    this.log.unshift(change);
    return change;
  }
  async changes(where: SettingPlace, limit: number) {
    return this.log
      .filter(
        ({ scope }) =>
          scope.level === 'workspace' || (scope.level === 'channel' && scope.channelId === where.channelId),
      )
      .slice(0, limit);
  }
  async lookup(): Promise<ScopedValues> {
    return {};
  }
}

const place: SettingsPlace = { platform: 'slack', workspaceId: 'T1', channelId: 'C1' };
const admin = { channel: true, workspace: true };
const member = { channel: false, workspace: false };

function setUp(rights = admin) {
  let now = 0;
  const store = new MemorySettings();
  const settings = new PlaceSettings({ store, operator, now: () => now });
  const context = (over: Partial<GenbotContext> = {}): GenbotContext => ({
    settings,
    place,
    userId: 'U1',
    rights,
    ...over,
  });
  return { store, settings, context, advance: (ms: number) => (now += ms) };
}

describe('parseGenbotText', () => {
  it('reads show, set with the rest of the line, reset and the workspace flag', () => {
    expect(parseGenbotText('')).toEqual({ kind: 'form' });
    expect(parseGenbotText(' show ')).toEqual({ kind: 'show' });
    expect(parseGenbotText('set system_prompt You are a pirate. Be brief --workspace')).toEqual({
      kind: 'set',
      name: 'system_prompt',
      value: 'You are a pirate. Be brief',
      level: 'workspace',
    });
    expect(parseGenbotText('set images 3')).toEqual({ kind: 'set', name: 'images', value: '3', level: 'channel' });
    expect(parseGenbotText('reset chat_model --workspace')).toEqual({
      kind: 'reset',
      name: 'chat_model',
      level: 'workspace',
    });
    expect(parseGenbotText('set')).toEqual({ kind: 'help' });
    expect(parseGenbotText('frobnicate')).toEqual({ kind: 'help' });
  });
});

describe('runGenbot', () => {
  it('sets a channel value that the very next read uses, and shows where each value comes from', async () => {
    const { context, settings } = setUp();
    const answer = await runGenbot(parseGenbotText('set chat_model chat-b'), context());
    expect(answer).toContain('`chat_model` in this channel is now `chat-b`');
    expect((await settings.resolve(place)).values.chat_model).toBe('chat-b');
    await runGenbot(parseGenbotText('set images 3 --workspace'), context());
    const shown = await runGenbot({ kind: 'show' }, context());
    expect(shown).toContain('`chat_model`: `chat-b` _(set for this channel)_');
    expect(shown).toContain('`images`: `3` _(from the workspace)_');
    expect(shown).toContain('`image_model`: `image-a` _(default)_');
    expect(shown).toContain('<@U1>: `images` for the whole workspace → `3`');
  });

  it('refuses what does not fit, and changes nothing', async () => {
    const { context, store } = setUp();
    expect(await runGenbot(parseGenbotText('set colour red'), context())).toContain('There is no setting `colour`');
    expect(await runGenbot(parseGenbotText('set chat_model gpt-9'), context())).toContain('`chat-a`, `chat-b`');
    expect(await runGenbot(parseGenbotText('set images 9'), context())).toContain('from 1 to 4');
    expect(await runGenbot(parseGenbotText(`set system_prompt ${'x'.repeat(4001)}`), context())).toContain('4,000');
    expect(await runGenbot(parseGenbotText('set budget_images_per_day 500 --workspace'), context())).toContain(
      'from 0 to 100',
    );
    expect(await runGenbot(parseGenbotText('set budget_images_per_day 5'), context())).toContain('--workspace');
    expect(store.log).toEqual([]);
  });

  it('refuses a member, and a channel-only admin at the workspace level', async () => {
    const { context, store } = setUp(member);
    expect(await runGenbot(parseGenbotText('set images 2'), context())).toContain('Only workspace admins');
    const channelAdmin = context({
      rights: { channel: true, workspace: false },
      place: { ...place, platform: 'discord' },
    });
    expect(await runGenbot(parseGenbotText('set images 2 --workspace'), channelAdmin)).toContain(
      'Only members with Manage Server',
    );
    expect(await runGenbot({ kind: 'show' }, context())).toContain('Only admins can change these.');
    expect(store.log).toEqual([]);
  });

  it('resets to what is inherited', async () => {
    const { context, settings } = setUp();
    await runGenbot(parseGenbotText('set images 2 --workspace'), context());
    await runGenbot(parseGenbotText('set images 4'), context());
    expect(await runGenbot(parseGenbotText('reset images'), context())).toContain('it is now from the workspace');
    expect((await settings.resolve(place)).values.images).toBe(2);
    expect(await runGenbot(parseGenbotText('reset images'), context())).toContain('nothing to reset');
  });

  it('keeps a DM out of channel settings and `enabled`', async () => {
    const { context, settings } = setUp();
    const dm = { ...place, channelId: 'D1', dm: true };
    await runGenbot(parseGenbotText('set enabled off --workspace'), context());
    expect((await settings.resolve(dm)).values.enabled).toBe(true);
    expect((await settings.resolve(place)).values.enabled).toBe(false);
    expect(await runGenbot(parseGenbotText('set images 2'), context({ place: dm }))).toContain('A DM has no channel');
    const discordDm = { platform: 'discord' as const, channelId: 'D9', dm: true };
    expect(await runGenbot(parseGenbotText('set images 2 --workspace'), context({ place: discordDm }))).toContain(
      'change them in a server channel',
    );
  });
});

describe('PlaceSettings', () => {
  it("reads another process's change within a second, and its own at once", async () => {
    const { store, settings, advance, context } = setUp();
    await settings.resolve(place);
    await settings.resolve(place);
    expect(store.reads).toBe(1);
    await store.put({ level: 'channel', platform: 'slack', workspaceId: 'T1', channelId: 'C1' }, 'images', 3);
    expect((await settings.resolve(place)).values.images).toBe(1);
    advance(1_000);
    expect((await settings.resolve(place)).values.images).toBe(3);
    await runGenbot(parseGenbotText('set images 2 --workspace'), context({ place: { ...place, channelId: 'C2' } }));
    expect((await settings.resolve({ ...place, channelId: 'C2' })).values.images).toBe(2);
    expect((await settings.resolve(place)).values.images).toBe(3);
  });
});

describe('the settings form', () => {
  it('shows own and inherited values, saves only what changed, and a second submit changes nothing', async () => {
    const { settings, context, store } = setUp();
    await runGenbot(parseGenbotText('set chat_model chat-b --workspace'), context());
    const fields = settingsForm(await settings.view(place, 'channel'), 'channel', operator);
    expect(fields.map((field) => field.name)).not.toContain('budget_images_per_day');
    expect(fields.find((field) => field.name === 'chat_model')).toMatchObject({
      own: undefined,
      effective: 'chat-b',
      from: 'workspace',
      choices: ['chat-a', 'chat-b'],
    });
    const form = { chat_model: '', images: '3', enabled: 'on', system_prompt: 'Talk like a sailor.' };
    const first = await submitSettingsForm(form, 'channel', context());
    expect(first).toEqual({ ok: true, answer: expect.stringContaining('`images` → `3`') });
    const logged = store.log.length;
    expect(await submitSettingsForm(form, 'channel', context())).toEqual({
      ok: true,
      answer: expect.stringContaining('Nothing changed'),
    });
    expect(store.log.length).toBe(logged);
  });

  it('refuses the whole form when one value does not fit, or the person may not', async () => {
    const { context, store } = setUp();
    expect(await submitSettingsForm({ images: '3', aspect_ratio: '7:5' }, 'channel', context())).toEqual({
      ok: false,
      errors: { aspect_ratio: expect.stringContaining('can be one of') },
    });
    expect(
      await submitSettingsForm({ images: '3' }, 'workspace', context({ rights: { channel: true, workspace: false } })),
    ).toEqual({
      ok: false,
      answer: expect.stringContaining('Only workspace admins'),
    });
    expect(store.log).toEqual([]);
  });
});
