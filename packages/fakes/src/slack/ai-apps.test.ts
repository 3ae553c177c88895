import { type App, webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackFake, type SlackFake, type SlackFakeOptions } from './server.js';
import { startHttpBolt } from './testing/bolt.js';

const { WebClient } = webApi;

let slack: SlackFake | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.stop();
  await slack?.close();
  app = undefined;
  slack = undefined;
});

async function fake(options: SlackFakeOptions = {}) {
  slack = await startSlackFake(options);
  const client = new WebClient(slack.identity.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  return { slack, client };
}

async function errorOf(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { data?: { error?: string } }).data?.error;
  }
}

const prompt = (n: number) => ({ title: `Prompt ${n}`, message: `Say ${n}` });

describe("Slack's AI-app methods over the real @slack/web-api client", () => {
  it('sets up to four suggested prompts on the agent view DM, and drops a call with a thread as Slack does', async () => {
    const { slack, client } = await fake();
    const dm = slack.workspace.openIm('U1');
    await client.assistant.threads.setSuggestedPrompts({ channel_id: dm.id, title: 'Try', prompts: [prompt(1)] });
    expect(slack.aiApps.prompts).toEqual([
      expect.objectContaining({ channel: dm.id, title: 'Try', prompts: [prompt(1)] }),
    ]);
    expect(slack.aiApps.prompts[0]?.threadTs).toBeUndefined();
    // "Including it in a call for an agent app will cause the call to silently fail."
    const top = await client.chat.postMessage({ channel: dm.id, text: 'hi' });
    await client.assistant.threads.setSuggestedPrompts({ channel_id: dm.id, thread_ts: top.ts, prompts: [prompt(2)] });
    expect(slack.aiApps.prompts).toHaveLength(1);
    const five = [1, 2, 3, 4, 5].map(prompt);
    expect(await errorOf(client.assistant.threads.setSuggestedPrompts({ channel_id: dm.id, prompts: five }))).toBe(
      'invalid_arguments',
    );
    expect(
      await errorOf(
        client.assistant.threads.setSuggestedPrompts({ channel_id: dm.id, prompts: [{ title: ' ', message: 'x' }] }),
      ),
    ).toBe('invalid_arguments');
    expect(
      await errorOf(client.assistant.threads.setSuggestedPrompts({ channel_id: 'D404', prompts: [prompt(1)] })),
    ).toBe('channel_not_found');
  });

  it('sets prompts and a title in an assistant view thread, which must exist', async () => {
    const { slack, client } = await fake({ aiView: 'assistant' });
    const dm = slack.workspace.openIm('U1');
    const root = await client.chat.postMessage({ channel: dm.id, text: 'root' });
    const threadTs = root.ts as string;
    await client.assistant.threads.setSuggestedPrompts({
      channel_id: dm.id,
      thread_ts: threadTs,
      prompts: [prompt(1)],
    });
    expect(slack.aiApps.prompts.at(-1)).toMatchObject({ channel: dm.id, threadTs });
    await client.assistant.threads.setTitle({ channel_id: dm.id, thread_ts: threadTs, title: 'A lighthouse' });
    expect(slack.aiApps.titles).toEqual([
      expect.objectContaining({ threadTs, title: 'A lighthouse', method: 'assistant.threads.setTitle' }),
    ]);
    expect(
      await errorOf(client.assistant.threads.setTitle({ channel_id: dm.id, thread_ts: '1.000001', title: 'x' })),
    ).toBe('invalid_thread_ts');
    // An app in the assistant view has no agent sessions.
    expect(await errorOf(client.agents.sessions.rename({ channel_id: dm.id, thread_ts: threadTs, title: 'x' }))).toBe(
      'session_not_found',
    );
  });

  it('renames an agent session by its thread, with a title of 1 to 200 characters', async () => {
    const { slack, client } = await fake();
    const dm = slack.workspace.openIm('U1');
    const top = await client.chat.postMessage({ channel: dm.id, text: 'draw a fox' });
    const threadTs = top.ts as string;
    const renamed = await client.agents.sessions.rename({
      channel_id: dm.id,
      thread_ts: threadTs,
      title: 'Draw a fox',
    });
    expect(renamed).toMatchObject({ ok: true, title: 'Draw a fox' });
    expect(slack.aiApps.titles).toEqual([
      expect.objectContaining({ channel: dm.id, threadTs, title: 'Draw a fox', method: 'agents.sessions.rename' }),
    ]);
    const rename = (args: { thread_ts?: string; title: string }) =>
      errorOf(client.agents.sessions.rename({ channel_id: dm.id, ...args }));
    expect(await rename({ thread_ts: threadTs, title: 'x'.repeat(201) })).toBe('invalid_arguments');
    expect(await rename({ thread_ts: threadTs, title: '' })).toBe('invalid_arguments');
    expect(await rename({ title: 'no thread' })).toBe('invalid_arguments');
    expect(await rename({ thread_ts: '1.000001', title: 'nowhere' })).toBe('session_not_found');
  });

  it('keeps a status with up to 10 loading messages', async () => {
    const { slack, client } = await fake();
    const dm = slack.workspace.openIm('U1');
    const top = await client.chat.postMessage({ channel: dm.id, text: 'hi' });
    await client.assistant.threads.setStatus({
      channel_id: dm.id,
      thread_ts: top.ts as string,
      status: 'is thinking…',
      loading_messages: ['Thinking…'],
    });
    expect(slack.workspace.statuses.at(-1)).toMatchObject({ status: 'is thinking…', loadingMessages: ['Thinking…'] });
    const eleven = Array.from({ length: 11 }, (_, i) => `step ${i}`);
    expect(
      await errorOf(
        client.assistant.threads.setStatus({
          channel_id: dm.id,
          thread_ts: top.ts as string,
          status: 'x',
          loading_messages: eleven,
        }),
      ),
    ).toBe('invalid_arguments');
  });

  it('publishes a Home tab when the app has one, checking its blocks', async () => {
    const { slack, client } = await fake();
    const view = {
      type: 'home' as const,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'What I can do' } },
        { type: 'section', text: { type: 'mrkdwn', text: '*Hello*' } },
      ],
    };
    const published = await client.views.publish({ user_id: 'U1', view });
    expect(published.view).toMatchObject({ type: 'home', id: expect.any(String), hash: expect.any(String) });
    expect(slack.aiApps.homeTab('U1')?.view).toEqual(view);
    // The same view id, a new hash; an old hash is a race lost.
    const again = await client.views.publish({ user_id: 'U1', view, hash: published.view?.hash });
    expect(again.view?.id).toBe(published.view?.id);
    expect(await errorOf(client.views.publish({ user_id: 'U1', view, hash: published.view?.hash }))).toBe(
      'hash_conflict',
    );
    const longHeader = { ...view, blocks: [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }] };
    expect(await errorOf(client.views.publish({ user_id: 'U1', view: longHeader }))).toBe('invalid_arguments');
    expect(await errorOf(client.views.publish({ user_id: 'U1', view: { ...view, type: 'modal' } as never }))).toBe(
      'invalid_arguments',
    );
    slack.aiApps.homeTabEnabled = false;
    expect(await errorOf(client.views.publish({ user_id: 'U1', view }))).toBe('not_enabled');
  });

  it('ends a stream with feedback buttons, and refuses a context_actions block Slack would refuse', async () => {
    const { slack, client } = await fake();
    const feedback = {
      type: 'context_actions',
      elements: [
        {
          type: 'feedback_buttons',
          action_id: 'rate',
          positive_button: { text: { type: 'plain_text', text: '👍' }, value: 'good', accessibility_label: 'Good' },
          negative_button: { text: { type: 'plain_text', text: '👎' }, value: 'bad' },
        },
      ],
    };
    const start = async () => {
      const parent = await client.chat.postMessage({ channel: 'C1', text: 'q' });
      const stream = await client.chat.startStream({
        channel: 'C1',
        thread_ts: parent.ts as string,
        markdown_text: 'a',
      });
      return stream.ts as string;
    };
    const ts = await start();
    await client.chat.stopStream({ channel: 'C1', ts, blocks: [feedback] as never });
    expect(slack.workspace.message('C1', ts)).toMatchObject({ blocks: [feedback], stream: { state: 'stopped' } });
    const other = await start();
    const button = { type: 'button', action_id: 'x', text: { type: 'plain_text', text: 'x' } };
    const refused = [
      { type: 'context_actions', elements: [button] },
      { type: 'context_actions', elements: [] },
      { ...feedback, elements: [{ ...feedback.elements[0], negative_button: undefined }] },
    ];
    for (const block of refused) {
      expect(await errorOf(client.chat.stopStream({ channel: 'C1', ts: other, blocks: [block] as never }))).toBe(
        'invalid_blocks',
      );
    }
  });
});

describe("Slack's AI-app events through the real Bolt", () => {
  it('tells the app of the App Home opened, an assistant thread started and a reply rated', async () => {
    slack = await startSlackFake();
    const seen: unknown[] = [];
    app = await startHttpBolt(slack, (bolt) => {
      bolt.event('app_home_opened', async ({ event }) => {
        seen.push({ type: event.type, tab: event.tab, channel: event.channel, view: event.view?.type });
      });
      bolt.event('assistant_thread_started', async ({ event }) => {
        seen.push({ type: event.type, thread: event.assistant_thread });
      });
      bolt.action('rate', async ({ ack, action }) => {
        await ack();
        seen.push({ type: action.type, value: 'value' in action ? action.value : undefined });
      });
    });
    const dm = slack.workspace.openIm('U1');
    await slack.userOpensApp({ user: 'U1', tab: 'messages' });
    const client = new WebClient(slack.identity.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    await client.views.publish({ user_id: 'U1', view: { type: 'home', blocks: [{ type: 'divider' }] } });
    await slack.userOpensApp({ user: 'U1', tab: 'home' });
    const thread = await slack.userStartsAssistantThread({ user: 'U1', viewing: 'C1' });
    expect(slack.workspace.message(dm.id, thread.threadTs)).toMatchObject({ subtype: 'assistant_app_thread' });
    const parent = await client.chat.postMessage({ channel: dm.id, text: 'q' });
    const stream = await client.chat.startStream({
      channel: dm.id,
      thread_ts: parent.ts as string,
      markdown_text: 'a',
    });
    await client.chat.stopStream({
      channel: dm.id,
      ts: stream.ts as string,
      blocks: [
        {
          type: 'context_actions',
          elements: [
            {
              type: 'feedback_buttons',
              action_id: 'rate',
              positive_button: { text: { type: 'plain_text', text: '👍' }, value: 'good' },
              negative_button: { text: { type: 'plain_text', text: '👎' }, value: 'bad' },
            },
          ],
        },
      ],
    });
    await slack.userRatesReply({ user: 'U1', channel: dm.id, ts: stream.ts as string, positive: false });
    await slack.waitFor(() => seen.length === 4);
    expect(seen).toEqual([
      { type: 'app_home_opened', tab: 'messages', channel: dm.id, view: undefined },
      { type: 'app_home_opened', tab: 'home', channel: dm.id, view: 'home' },
      {
        type: 'assistant_thread_started',
        thread: expect.objectContaining({ user_id: 'U1', channel_id: dm.id, thread_ts: thread.threadTs }),
      },
      { type: 'feedback_buttons', value: 'bad' },
    ]);
  });
});
