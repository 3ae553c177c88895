import type { App } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake } from './server.js';
import { startHttpBolt, startSocketBolt } from './testing/bolt.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('bot image')]);

let slack: SlackFake | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.stop();
  await slack?.close();
  app = undefined;
  slack = undefined;
});

const modal = (title = 'Edit image') => ({
  type: 'modal',
  callback_id: 'edit-form',
  private_metadata: 'gb1:e:ref',
  title: { type: 'plain_text', text: title },
  submit: { type: 'plain_text', text: 'Edit' },
  blocks: [
    {
      type: 'input',
      block_id: 'instruction',
      label: { type: 'plain_text', text: 'How should it change?' },
      element: { type: 'plain_text_input', action_id: 'text' },
    },
  ],
});

/** The bot uploads a file with an actions block, opens a modal on a press, and validates the submission. */
function buttonsBot(seen: string[]) {
  return (bolt: App) => {
    bolt.command('/draw', async ({ ack, command, client }) => {
      await ack();
      await client.files.uploadV2({
        channel_id: command.channel_id,
        file_uploads: [{ file: PNG, filename: 'cat.png' }],
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: 'a cat' } },
          {
            type: 'actions',
            block_id: 'result',
            elements: [
              {
                type: 'button',
                action_id: 'gb1:v:ref',
                value: 'gb1:v:ref',
                text: { type: 'plain_text', text: 'Vary' },
              },
              {
                type: 'button',
                action_id: 'gb1:e:ref',
                value: 'gb1:e:ref',
                text: { type: 'plain_text', text: 'Edit' },
              },
            ],
          },
        ],
      });
    });
    bolt.action(/^gb1:/, async ({ ack, body, action, client }) => {
      await ack();
      if (body.type !== 'block_actions' || action.type !== 'button' || !('action_id' in action)) return;
      seen.push(`press:${action.action_id}:${action.value}:${body.user.id}:${body.container.message_ts}`);
      if (action.action_id === 'gb1:e:ref')
        await client.views.open({ trigger_id: body.trigger_id, view: modal() as never });
    });
    bolt.view('edit-form', async ({ ack, view, body }) => {
      const text = view.state.values.instruction?.text?.value ?? '';
      seen.push(`submit:${body.user.id}:${view.private_metadata}:${text}`);
      if (text.trim() === '') {
        await ack({ response_action: 'errors', errors: { instruction: 'Tell me how to change it.' } });
        return;
      }
      await ack();
    });
  };
}

describe('Slack interactivity against the real Bolt', () => {
  for (const mode of ['http', 'socket'] as const) {
    it(`carries buttons on a file message, delivers presses and modal submissions (${mode})`, async () => {
      const seen: string[] = [];
      slack = await startSlackFake();
      app =
        mode === 'http' ? await startHttpBolt(slack, buttonsBot(seen)) : await startSocketBolt(slack, buttonsBot(seen));
      const fake = slack;
      await fake.userRunsCommand({ user: 'U1', channel: 'C1', command: '/draw', text: '' });
      const result = await fake.waitFor((ws) => ws.botMessages('UBOT').find((m) => m.fileIds.length === 1));
      expect(result.blocks?.map((block) => (block as { type: string }).type)).toEqual(['section', 'actions']);

      const vary = await fake.userPresses({ user: 'U2', channel: 'C1', ts: result.ts, actionId: 'gb1:v:ref' });
      expect(vary.delivery.acked).toBe(true);
      expect(seen).toEqual([`press:gb1:v:ref:gb1:v:ref:U2:${result.ts}`]);

      await fake.userPresses({ user: 'U2', channel: 'C1', ts: result.ts, actionId: 'gb1:e:ref' });
      const opened = await fake.waitFor(() => fake.views.find((view) => view.open));
      expect(opened.user).toBe('U2');
      const empty = await fake.userSubmitsView({ user: 'U2', viewId: opened.id, text: ' ' });
      expect(empty).toMatchObject({ closed: false, errors: { instruction: 'Tell me how to change it.' } });
      const sent = await fake.userSubmitsView({ user: 'U2', viewId: opened.id, text: 'make it blue' });
      expect(sent.closed).toBe(true);
      expect(seen.at(-1)).toBe('submit:U2:gb1:e:ref:make it blue');
    });
  }

  it('refuses a trigger used twice, an expired one and an unknown one, like Slack', async () => {
    const triggers: string[] = [];
    slack = await startSlackFake();
    app = await startHttpBolt(slack, (bolt) => {
      bolt.action('go', async ({ ack, body }) => {
        await ack();
        if (body.type === 'block_actions') triggers.push(body.trigger_id);
      });
    });
    const fake = slack;
    const message = fake.workspace.post({
      channel: 'C1',
      user: 'UBOT',
      botId: 'BBOT',
      text: '',
      blocks: [
        { type: 'actions', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' } }] },
      ],
    });
    await fake.userPresses({ user: 'U1', channel: 'C1', ts: message.ts, actionId: 'go' });
    const [trigger] = triggers;
    const open = (trigger_id: string) => app?.client.views.open({ trigger_id, view: modal() as never });
    await expect(open(trigger ?? '')).resolves.toMatchObject({ ok: true });
    await expect(open(trigger ?? '')).rejects.toThrow(/exchanged_trigger_id/);
    await expect(open('1.2.3')).rejects.toThrow(/invalid_trigger_id/);
    const restore = fake.expireTriggers();
    await fake.userPresses({ user: 'U1', channel: 'C1', ts: message.ts, actionId: 'go' });
    await expect(open(triggers[1] ?? '')).rejects.toThrow(/expired_trigger_id/);
    restore();
    await expect(fake.userPresses({ user: 'U1', channel: 'C1', ts: message.ts, actionId: 'nope' })).rejects.toThrow(
      /no button/,
    );
    const forged = await fake.userPresses({
      user: 'U1',
      channel: 'C1',
      ts: message.ts,
      actionId: 'go',
      forgedValue: 'x',
      signature: 'invalid',
    });
    expect(forged.delivery.acked).toBe(false);
  });

  it('shows where an uploaded file was shared (files.info shares), and a deleted file as deleted', async () => {
    slack = await startSlackFake();
    app = await startHttpBolt(slack, () => {});
    const client = app.client;
    const upload = await client.files.uploadV2({
      channel_id: 'C1',
      thread_ts: '1.000001',
      file_uploads: [{ file: PNG, filename: 'a.png' }],
    });
    const fileId = (upload as unknown as { files: { files: { id: string }[] }[] }).files[0]?.files[0]?.id ?? '';
    const info = await client.files.info({ file: fileId });
    const message = slack.workspace.messages.find((m) => m.fileIds.includes(fileId));
    expect(info.file?.shares).toEqual({
      public: { C1: [expect.objectContaining({ ts: message?.ts, thread_ts: '1.000001' })] },
    });
    slack.userDeletesFile(fileId);
    await expect(client.files.info({ file: fileId })).rejects.toThrow(/file_deleted/);
  });

  it('ignores blocks when an initial comment is set, and refuses a markdown block on a file message', async () => {
    slack = await startSlackFake();
    app = await startHttpBolt(slack, () => {});
    const client = app.client;
    await client.files.uploadV2({
      channel_id: 'C1',
      initial_comment: 'hello',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'ignored' } }],
      file_uploads: [{ file: PNG, filename: 'a.png' }],
    });
    const commented = slack.workspace.messages.at(-1);
    expect([commented?.text, commented?.blocks]).toEqual(['hello', undefined]);
    await expect(
      client.files.uploadV2({
        channel_id: 'C1',
        blocks: [{ type: 'markdown', text: '**no**' }],
        file_uploads: [{ file: PNG, filename: 'b.png' }],
      }),
    ).rejects.toThrow(/invalid_blocks/);
  });
});
