import type { App } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSlackFake, type SlackFake } from './server.js';
import { startHttpBolt } from './testing/bolt.js';

let slack: SlackFake | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.stop();
  await slack?.close();
  app = undefined;
  slack = undefined;
});

const text = (value: string) => ({ type: 'plain_text', text: value });
const option = (value: string) => ({ text: text(value), value });

/** A settings-like modal: a select, a long text input, and a select in an actions block that switches it. */
function settingsModal(level: string, ratio?: string) {
  return {
    type: 'modal',
    callback_id: 'settings',
    private_metadata: level,
    title: text('Settings'),
    submit: text('Save'),
    blocks: [
      {
        type: 'actions',
        block_id: 'level',
        elements: [
          {
            type: 'static_select',
            action_id: 'level',
            options: [option('channel'), option('workspace')],
            initial_option: option(level),
          },
        ],
      },
      {
        type: 'input',
        block_id: 'ratio',
        optional: true,
        label: text('Aspect ratio'),
        element: {
          type: 'static_select',
          action_id: 'value',
          options: [option('inherit'), option('1:1'), option('16:9')],
          initial_option: option(ratio ?? 'inherit'),
        },
      },
      {
        type: 'input',
        block_id: 'prompt',
        optional: true,
        label: text('System prompt'),
        element: { type: 'plain_text_input', action_id: 'value', multiline: true, max_length: 3000 },
      },
    ],
  };
}

const selected = z.object({ selected_option: z.object({ value: z.string() }).nullable() });
const typed = z.object({ value: z.string().nullable() });

describe('Slack modals with selects and inputs against the real Bolt', () => {
  it('tells admins and owners by users.info, as the workspace sets them', async () => {
    slack = await startSlackFake({ users: [{ id: 'U3', name: 'carol', role: 'owner' }] });
    app = await startHttpBolt(slack, () => {});
    slack.workspace.setRole('U2', 'admin');
    const info = async (user: string) => {
      const answer = await app?.client.users.info({ user });
      return [answer?.user?.is_admin, answer?.user?.is_owner];
    };
    expect(await info('U1')).toEqual([false, false]);
    expect(await info('U2')).toEqual([true, false]);
    expect(await info('U3')).toEqual([true, true]);
  });

  it('refuses views Slack would refuse: an initial option not offered, an input longer than 3,000, a block id twice, inputs without a submit button', async () => {
    slack = await startSlackFake();
    const triggers: string[] = [];
    app = await startHttpBolt(slack, (bolt) => {
      bolt.command('/settings', async ({ ack, command }) => {
        await ack();
        triggers.push(command.trigger_id);
      });
    });
    const fake = slack;
    const open = async (view: Record<string, unknown>) => {
      await fake.userRunsCommand({ user: 'U1', channel: 'C1', command: '/settings', text: '' });
      return app?.client.views.open({ trigger_id: triggers.at(-1) ?? '', view: view as never });
    };
    const good = settingsModal('channel');
    const [levels, ratio, prompt] = good.blocks;
    const notOffered = { ...ratio, element: { ...ratio?.element, initial_option: option('4:3') } };
    const tooLong = { ...prompt, element: { ...prompt?.element, max_length: 4000 } };
    await expect(open({ ...good, blocks: [levels, notOffered, prompt] })).rejects.toThrow(/invalid_arguments/);
    await expect(open({ ...good, blocks: [levels, ratio, tooLong] })).rejects.toThrow(/invalid_arguments/);
    await expect(open({ ...good, blocks: [levels, ratio, ratio] })).rejects.toThrow(/invalid_arguments/);
    const { submit: _submit, ...unsubmittable } = good;
    await expect(open(unsubmittable)).rejects.toThrow(/invalid_arguments/);
    await expect(open(good)).resolves.toMatchObject({ ok: true });
  });

  it('sends every input with its submission, switches the view on an action, and keeps it open on update', async () => {
    slack = await startSlackFake();
    const submitted: unknown[] = [];
    app = await startHttpBolt(slack, (bolt) => {
      bolt.command('/settings', async ({ ack, command, client }) => {
        await ack();
        await client.views.open({ trigger_id: command.trigger_id, view: settingsModal('channel', '16:9') as never });
      });
      bolt.action('level', async ({ ack, body, client }) => {
        await ack();
        if (body.type !== 'block_actions' || body.view === undefined) return;
        const action = body.actions[0];
        const level = action?.type === 'static_select' ? action.selected_option.value : 'channel';
        await client.views.update({ view_id: body.view.id, hash: body.view.hash, view: settingsModal(level) as never });
      });
      bolt.view('settings', async ({ ack, view }) => {
        submitted.push(view.state.values);
        if (view.private_metadata === 'workspace') {
          const next = { ...settingsModal('workspace'), private_metadata: 'saved' };
          await ack({ response_action: 'update', view: next as never });
          return;
        }
        await ack();
      });
    });
    const fake = slack;
    await fake.userRunsCommand({ user: 'U1', channel: 'C1', command: '/settings', text: '' });
    const view = await fake.waitFor(() => fake.views.find((each) => each.open));

    await expect(fake.userSubmitsView({ user: 'U2', viewId: view.id, values: {} })).rejects.toThrow(/open for U1/);
    await expect(
      fake.userSubmitsView({ user: 'U1', viewId: view.id, values: { ratio: { value: '5:4' } } }),
    ).rejects.toThrow(/no option/);
    await expect(
      fake.userSubmitsView({ user: 'U1', viewId: view.id, values: { prompt: { value: 'x'.repeat(3001) } } }),
    ).rejects.toThrow(/at most 3000/);

    await fake.userActsInView({ user: 'U1', viewId: view.id, actionId: 'level', value: 'workspace' });
    await fake.waitFor(() => (view.view.private_metadata === 'workspace' ? true : undefined));
    const update = await fake.userSubmitsView({
      user: 'U1',
      viewId: view.id,
      values: { prompt: { value: 'Be brief.' } },
    });
    expect(update).toMatchObject({ closed: false, updated: true });
    expect(view.view.private_metadata).toBe('saved');
    const state = z.record(z.string(), z.record(z.string(), z.unknown())).parse(submitted.at(-1));
    expect(selected.parse(state.ratio?.value).selected_option?.value).toBe('inherit');
    expect(typed.parse(state.prompt?.value).value).toBe('Be brief.');
  });

  it('delivers a forged submission with the metadata given, from anyone', async () => {
    slack = await startSlackFake();
    const seen: string[] = [];
    app = await startHttpBolt(slack, (bolt) => {
      bolt.command('/settings', async ({ ack, command, client }) => {
        await ack();
        await client.views.open({ trigger_id: command.trigger_id, view: settingsModal('channel', '1:1') as never });
      });
      bolt.view('settings', async ({ ack, view, body }) => {
        const ratio = selected.parse(view.state.values.ratio?.value).selected_option?.value;
        seen.push(`${body.user.id}:${view.private_metadata}:${ratio}`);
        await ack();
      });
    });
    const fake = slack;
    await fake.userRunsCommand({ user: 'U1', channel: 'C1', command: '/settings', text: '' });
    const view = await fake.waitFor(() => fake.views.find((each) => each.open));
    const forged = await fake.userSubmitsView({
      user: 'U2',
      viewId: view.id,
      values: {},
      forged: { privateMetadata: 'C9' },
    });
    expect(forged.closed).toBe(true);
    expect(seen).toEqual(['U2:C9:1:1']);
  });
});
