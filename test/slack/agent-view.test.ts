import { copy } from '@genbot/core/copy';
import type { ChatJob } from '@genbot/core/jobs';
import { createLogger } from '@genbot/core/log';
import type { SlackMessage } from '@genbot/fakes';
import { titleConversation } from '@genbot/slack-bot';
import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import { type AiAppHarness, startAiAppHarness } from './support/ai-app-harness.js';
import { SECRETS } from './support/harness.js';

/**
 * Slack's AI-app surfaces (issue 30), through the real Bolt and the fake:
 * the agent view's DM opened (suggested prompts, no thread), the assistant
 * view's thread (prompts in it, its title), the Home tab, the assistant
 * status while the bot works on a DM turn, conversation titles, and the
 * feedback buttons a native stream ends with, counted on /metrics. DM turns
 * are submitted here as the DM path submits them: a `mention` job on the DM
 * thread.
 */

function useAiApps(options: Parameters<typeof startAiAppHarness>[0]): () => AiAppHarness {
  let harness: AiAppHarness | undefined;
  beforeAll(async () => {
    harness = await startAiAppHarness(options);
  });
  afterAll(async () => {
    if (harness === undefined) return;
    const seenAnywhere = [harness.logs(), JSON.stringify(harness.slack.calls)].join('\n');
    for (const secret of Object.values(SECRETS)) expect(seenAnywhere).not.toContain(secret);
    await harness.close();
  });
  return () => {
    if (harness === undefined) throw new Error('the harness starts in beforeAll');
    return harness;
  };
}

/** A person's message in their DM with the app, answered as a DM turn: its job, once finished. */
async function dmTurn(h: AiAppHarness, text: string, threadTs?: string) {
  const dm = h.slack.workspace.openIm('U1');
  const posted = await h.slack.userSays({ user: 'U1', channel: dm.id, text, ...(threadTs && { threadTs }) });
  const thread = posted.threadTs ?? posted.ts;
  const job: ChatJob = {
    id: `slack-dm-test-${posted.ts}`,
    platform: 'slack',
    workspaceId: h.slack.identity.teamId,
    channelId: dm.id,
    threadId: thread,
    userId: 'U1',
    input: {
      kind: 'mention',
      mention: {
        target: { channelId: dm.id, threadId: thread },
        trigger: {
          id: posted.ts,
          author: { id: 'U1', name: 'Alice', isBot: false, isSelf: false },
          text,
          attachments: [],
        },
        userId: 'U1',
      },
    },
  };
  expect(await h.intake.submit(job)).toMatchObject({ accepted: true });
  await jobFinished(h.store, job.id);
  return { channel: dm.id, ts: posted.ts, threadTs: thread };
}

function botMessagesIn(h: AiAppHarness, channel: string, threadTs: string): SlackMessage[] {
  return h.slack.workspace.botMessages(h.slack.identity.botUserId, { channel, threadTs });
}

/** Every text a message ever showed, its edits included. */
function everShown(message: SlackMessage): string[] {
  return [...message.edits.map((version) => version.text), message.text];
}

describe('Slack AI-app surfaces, replies edited in place', () => {
  const h = useAiApps({});

  it("suggests at most four prompts, each a plain message, when a person opens the agent view's DM", async () => {
    const { slack } = h();
    const dm = slack.workspace.openIm('U1');
    await slack.userOpensApp({ user: 'U1', tab: 'messages' });
    const set = await slack.waitFor(() => slack.aiApps.prompts.find((prompts) => prompts.channel === dm.id));
    expect(set.threadTs).toBeUndefined();
    expect(set.title).toBe(copy.suggestedPromptsTitle);
    expect(set.prompts).toEqual(copy.suggestedPrompts(true));
    expect(set.prompts.length).toBeLessThanOrEqual(4);
    // The agent view takes no thread_ts: with one, Slack would drop the call silently.
    const call = slack.calls.find((c) => c.method === 'assistant.threads.setSuggestedPrompts');
    expect(call?.args.thread_ts).toBeUndefined();
  });

  it('shows what the bot does as the DM thread\'s status, "is thinking…" then the drawing, and posts no placeholder', async () => {
    const { slack } = h();
    const asked = await dmTurn(h(), 'what is a lighthouse for?');
    const statuses = slack.workspace.statuses.filter((s) => s.threadTs === asked.threadTs);
    expect(statuses[0]).toMatchObject({
      channel: asked.channel,
      status: copy.thinkingStatus,
      loadingMessages: [copy.thinkingLoading],
    });
    const replies = botMessagesIn(h(), asked.channel, asked.threadTs);
    expect(replies).toHaveLength(1);
    expect(everShown(replies[0] as SlackMessage)).not.toContain(copy.thinking);

    // A drawing with no words before it: the status says so, and no message does.
    const drawn = await dmTurn(h(), '[tool:generate_image {"prompt":"a red fox in the snow"}]');
    const drawing = copy.drawingActivity('a red fox in the snow');
    const during = slack.workspace.statuses.filter((s) => s.threadTs === drawn.threadTs).map((s) => s.status);
    expect(during).toContain(drawing);
    expect(slack.workspace.statuses.find((s) => s.status === drawing)?.loadingMessages).toEqual([drawing]);
    const shown = botMessagesIn(h(), drawn.channel, drawn.threadTs).flatMap(everShown);
    expect(shown.some((text) => text.includes('Drawing'))).toBe(false);
    expect(botMessagesIn(h(), drawn.channel, drawn.threadTs).some((m) => m.fileIds.length > 0)).toBe(true);
  });

  it('keeps the assistant status out of channels', async () => {
    const { slack, store } = h();
    const before = slack.workspace.statuses.length;
    const mention = await slack.userSays({ user: 'U1', channel: 'C1', text: '<@UBOT> say hello' });
    const eventId = mention.deliveries.find((delivery) => delivery.eventType === 'app_mention')?.eventId;
    await jobFinished(store, `slack-ev-${eventId}`);
    expect(slack.workspace.botMessages('UBOT', { channel: 'C1', threadTs: mention.ts })).toHaveLength(1);
    expect(slack.workspace.statuses.slice(before)).toEqual([]);
  });

  it("publishes the Home tab with what genbot does and the person's usage today", async () => {
    const { slack } = h();
    await slack.userOpensApp({ user: 'U1', tab: 'home' });
    const tab = await slack.waitFor(() => slack.aiApps.homeTab('U1'));
    const text = JSON.stringify(tab.view);
    expect(tab.view.type).toBe('home');
    expect(text).toContain(copy.homeTitle);
    expect(text).toContain('Messages tab');
    expect(text).toContain(copy.homeUsageTitle);
    // The DM turns above were U1's: they count for U1.
    expect(text).toMatch(/\*Today:\* \d+ images?, [\d,]+ chat tokens/);
    expect(text).not.toMatch(/\*Today:\* 0 images?, 0 chat tokens/);
  });

  it("names an agent view conversation from its first request's words, and an assistant view thread once", async () => {
    const { slack, client, seen } = h();
    const context = {
      client,
      seen,
      identity: { userId: 'UBOT', botId: 'BBOT', teamId: 'T1', name: 'genbot' },
      logger: createLogger({ level: 'silent' }),
    };
    const dm = slack.workspace.openIm('U1');
    const top = await slack.userSays({ user: 'U1', channel: dm.id, text: 'Draw a *lighthouse* at dusk, please' });
    await titleConversation(context, { channel: dm.id, ts: top.ts, text: 'Draw a *lighthouse* at dusk, please' });
    expect(slack.aiApps.titles.at(-1)).toMatchObject({
      channel: dm.id,
      threadTs: top.ts,
      title: 'Draw a lighthouse at dusk, please',
      method: 'agents.sessions.rename',
    });
    // A later turn in that thread names nothing.
    const titles = slack.aiApps.titles.length;
    const next = await slack.userSays({ user: 'U1', channel: dm.id, text: 'bigger', threadTs: top.ts });
    await titleConversation(context, { channel: dm.id, ts: next.ts, threadTs: top.ts, text: 'bigger' });
    expect(slack.aiApps.titles).toHaveLength(titles);

    slack.aiApps.view = 'assistant';
    try {
      const opened = await slack.userStartsAssistantThread({ user: 'U1', viewing: 'C1' });
      const prompts = await slack.waitFor(() => slack.aiApps.prompts.find((p) => p.threadTs === opened.threadTs));
      expect(prompts.prompts).toEqual(copy.suggestedPrompts(true));
      for (const [i, words] of ['What can you do?', 'And in channels?'].entries()) {
        const said = await slack.userSays({ user: 'U1', channel: dm.id, text: words, threadTs: opened.threadTs });
        await titleConversation(context, { channel: dm.id, ts: said.ts, threadTs: opened.threadTs, text: words });
        if (i === 0) {
          expect(slack.aiApps.titles.at(-1)).toMatchObject({
            threadTs: opened.threadTs,
            title: 'What can you do?',
            method: 'assistant.threads.setTitle',
          });
        }
      }
      expect(slack.aiApps.titles.filter((t) => t.threadTs === opened.threadTs)).toHaveLength(1);
    } finally {
      slack.aiApps.view = 'agent';
    }
  });
});

describe('Slack AI-app surfaces, native streaming', () => {
  const h = useAiApps({ streaming: 'native' });

  it('ends a streamed reply with feedback buttons, whose presses are counted on /metrics', async () => {
    const { slack, metrics } = h();
    const mention = await slack.userSays({ user: 'U1', channel: 'C1', text: '<@UBOT> say hello' });
    const reply = await slack.waitFor(
      () =>
        slack.workspace
          .botMessages('UBOT', { channel: 'C1', threadTs: mention.ts })
          .find((m) => m.stream?.state === 'stopped'),
      20_000,
    );
    expect(reply.blocks).toEqual([
      expect.objectContaining({
        type: 'context_actions',
        elements: [expect.objectContaining({ type: 'feedback_buttons' })],
      }),
    ]);
    await slack.userRatesReply({ user: 'U1', channel: 'C1', ts: reply.ts, positive: true });
    await slack.userRatesReply({ user: 'U2', channel: 'C1', ts: reply.ts, positive: true });
    await slack.userRatesReply({ user: 'U2', channel: 'C1', ts: reply.ts, positive: false });
    const text = await eventually(async () => {
      const shown = await metrics.registry.metrics();
      return shown.includes('rating="bad"} 1') && shown;
    });
    expect(text).toContain('genbot_reply_feedback_total{platform="slack",rating="good"} 2');
    expect(text).toContain('genbot_reply_feedback_total{platform="slack",rating="bad"} 1');
  });

  it("ends a DM turn's stream with them too, its status set while the model works", async () => {
    const { slack } = h();
    const asked = await dmTurn(h(), 'what is a harbour?');
    const [reply] = botMessagesIn(h(), asked.channel, asked.threadTs);
    expect(reply?.stream?.state).toBe('stopped');
    expect(JSON.stringify(reply?.blocks)).toContain('feedback_buttons');
    expect(slack.workspace.statuses.some((s) => s.threadTs === asked.threadTs)).toBe(true);
  });
});
