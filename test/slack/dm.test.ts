import { copy } from '@genbot/core/copy';
import type { SlackFake, SlackMessage, SlackPostedMessage, SlackSubscribedEvent } from '@genbot/fakes';
import { BOT_EVENTS } from '@genbot/slack-bot/registrations';
import { eventually } from '@genbot/test-servers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobFinished } from '../support/job-finished.js';
import {
  CHANNEL,
  expectedReply,
  generateContentRequests,
  type Harness,
  requestsUntilMarker,
  SECRETS,
  useHarness,
} from './support/harness.js';
import { colourPng } from './support/images.js';
import { buttonsOf, pressButton, results, shownText } from './support/result-messages.js';

/**
 * Direct messages on Slack (issue 30), through the real Bolt and the fake,
 * subscribed to the events the manifest asks for: in the person's DM with the
 * bot every new message is a turn, answered in its thread, the thread being
 * the conversation, with images, tools, /imagine and the buttons as in a channel.
 */

/** The events the fake can send, those the manifest subscribes to. */
const HEARD: readonly SlackSubscribedEvent[] = ['app_mention', 'message.channels', 'message.groups', 'message.im'];
const SUBSCRIBED = HEARD.filter((event) => BOT_EVENTS.includes(event));

/** A DM turn's job: named by its message. */
function turnJobId(posted: Pick<SlackPostedMessage, 'channel' | 'ts'>): string {
  return `slack-msg-${posted.channel}-${posted.ts}`;
}

async function turnDone(h: Harness, posted: SlackPostedMessage): Promise<void> {
  expect(await jobFinished(h.store, turnJobId(posted))).toMatchObject({ outcome: 'done' });
}

/** The bot's messages in a DM thread (its results among them), oldest first. */
function repliesIn(slack: SlackFake, channel: string, threadTs: string): SlackMessage[] {
  return slack.workspace.botMessages(slack.identity.botUserId, { channel, threadTs });
}

function textReplies(slack: SlackFake, channel: string, threadTs: string): SlackMessage[] {
  return repliesIn(slack, channel, threadTs).filter((message) => message.fileIds.length === 0);
}

const messagesRequest = z.object({
  messages: z.array(
    z.object({
      role: z.enum(['user', 'assistant']),
      content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]),
    }),
  ),
});

/** The messages requests made from `since` on, as the turns each sent: role and words. */
function turnsSent(h: Harness, since: number): Array<Array<{ role: string; text: string }>> {
  return h.emulator.requests
    .slice(since)
    .filter((request) => request.path.endsWith('/v1/messages'))
    .map((request) =>
      messagesRequest.parse(request.body).messages.map((message) => ({
        role: message.role,
        text:
          typeof message.content === 'string'
            ? message.content
            : message.content.map((block) => block.text ?? `[${block.type}]`).join(' '),
      })),
    );
}

/** A message that shows a result, once its versions know it (what the buttons find it by). */
async function known(h: Harness, message: SlackMessage): Promise<SlackMessage> {
  await eventually(
    async () => (await h.store.versions.byMessage('slack', message.channel, message.ts)).length > 0 || undefined,
  );
  return message;
}

async function nthResult(h: Harness, channel: string, threadTs: string | undefined, n: number): Promise<SlackMessage> {
  return known(h, await h.slack.waitFor(() => results(h.slack, channel, threadTs)[n], 30_000));
}

/** The bot writes in a DM by itself (as the Web API lets it), which Slack echoes to it as message.im. */
async function botPosts(slack: SlackFake, channel: string, text: string): Promise<string> {
  const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.botToken}`, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ channel, text }),
  });
  return z.object({ ok: z.literal(true), ts: z.string() }).parse(await response.json()).ts;
}

/** Log lines at info level and above. */
function infoLogs(h: Harness): string[] {
  const level = z.looseObject({ level: z.number() });
  return h
    .logs()
    .split('\n')
    .filter((line) => line.trim() !== '' && (level.safeParse(JSON.parse(line)).data?.level ?? 0) >= 30);
}

describe('Slack direct messages: every message from the person is a turn, answered in its thread', () => {
  // Carol writes only in the privacy test, so her usage there is that test's alone.
  const get = useHarness({ mode: 'http', fake: { events: SUBSCRIBED, users: [{ id: 'U3', name: 'carol' }] } });

  it('subscribes the fake to message.im, as the manifest does', () => {
    expect(SUBSCRIBED).toContain('message.im');
  });

  it('answers a top-level DM in its thread, no mention needed, and a follow-up there sees the earlier turns', async () => {
    const h = get();
    const dm = h.slack.openDm('U1');
    expect(dm).toMatch(/^D/);
    const since = h.emulator.requests.length;
    const first = await h.slack.userSays({ user: 'U1', channel: dm, text: 'tell me about lighthouses [len:80]' });
    await turnDone(h, first);
    const answer = await expectedReply(h, since);
    const [reply, ...more] = repliesIn(h.slack, dm, first.ts);
    expect(more).toEqual([]);
    expect(reply).toMatchObject({ channel: dm, threadTs: first.ts, text: answer });
    // Only the person's message stands at the DM's top level: the answer is in its thread.
    expect(h.slack.workspace.history(dm).map((message) => message.ts)).toEqual([first.ts]);
    // The conversation is named from its first words, as the agent view lists it; no model call does it.
    expect(h.slack.aiApps.titles).toContainEqual(
      expect.objectContaining({ method: 'agents.sessions.rename', channel: dm, threadTs: first.ts }),
    );

    // The reply's last edit reaches the bot as an event, as it would in Slack, before the person writes again.
    await eventually(async () =>
      (await h.store.threads.thread('slack', dm, first.ts)).some((message) => message.text === answer),
    );
    const sinceFollowUp = h.emulator.requests.length;
    const followUp = await h.slack.userSays({
      user: 'U1',
      channel: dm,
      threadTs: first.ts,
      text: 'and the tallest one? [len:40]',
    });
    await turnDone(h, followUp);
    expect(turnsSent(h, sinceFollowUp)).toEqual([
      [
        { role: 'user', text: 'Alice: tell me about lighthouses [len:80]' },
        { role: 'assistant', text: answer },
        { role: 'user', text: 'Alice: and the tallest one? [len:40]' },
      ],
    ]);
    expect(textReplies(h.slack, dm, first.ts)).toHaveLength(2);
  });

  it("answers neither the bot's own DM messages nor an edit", async () => {
    const h = get();
    const dm = h.slack.openDm('U2');
    const posted = await h.slack.userSays({ user: 'U2', channel: dm, text: 'first words [len:20]' });
    await turnDone(h, posted);
    const since = h.emulator.requests.length;

    const edit = await h.slack.userEdits({ channel: dm, ts: posted.ts, text: 'first words, said better' });
    expect(edit?.acked).toBe(true);
    const own = await botPosts(h.slack, dm, 'a note the bot left');

    expect(await requestsUntilMarker(h, since)).toEqual([]);
    expect(await h.store.jobs.get(turnJobId({ channel: dm, ts: own }))).toBeUndefined();
    expect(repliesIn(h.slack, dm, posted.ts)).toHaveLength(1);
    expect(h.slack.workspace.thread(dm, own)).toHaveLength(1);
  });

  it('answers "what is in this?" with an image in a DM about the image, from its pixels: nothing drawn', async () => {
    const h = get();
    const dm = h.slack.openDm('U1');
    const since = h.emulator.requests.length;
    const posted = await h.slack.userSays({
      user: 'U1',
      channel: dm,
      text: 'what is in this?',
      files: [{ name: 'photo.png', bytes: await colourPng() }],
    });
    expect(posted.deliveries[0]?.payload.event).toMatchObject({ subtype: 'file_share', channel_type: 'im' });
    await turnDone(h, posted);

    // One user turn: the image as an image block, then the words about it.
    const [turns, ...more] = turnsSent(h, since);
    expect(more).toEqual([]);
    expect(turns).toEqual([{ role: 'user', text: expect.stringMatching(/\[image\] Alice: what is in this\?$/) }]);
    const [reply] = textReplies(h.slack, dm, posted.ts);
    expect(reply?.text).toMatch(/^Image 1 is 48 × 32 pixels, PNG, mostly /);
    expect(reply?.text).toBe(await expectedReply(h, since));
    expect(generateContentRequests(h, since)).toBe(0);
  });

  it('draws "a fox" asked for in a DM into its thread, with the buttons of /imagine, and Vary works there', async () => {
    const h = get();
    const dm = h.slack.openDm('U2');
    const posted = await h.slack.userSays({ user: 'U2', channel: dm, text: 'draw a fox' });
    await turnDone(h, posted);

    const drawn = await nthResult(h, dm, posted.ts, 0);
    expect(shownText(drawn)).toBe(copy.imageComment('draw a fox'));
    expect(buttonsOf(drawn).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit']);

    await pressButton(h.slack, drawn, 'Vary', 'U2');
    const varied = await nthResult(h, dm, posted.ts, 1);
    expect(shownText(varied)).toBe(copy.variedComment(2, 1));
    expect(buttonsOf(varied).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
  });

  it('runs /imagine in a DM: the result arrives there with its buttons, and Re-roll answers in its thread', async () => {
    const h = get();
    const dm = h.slack.openDm('U1');
    const run = await h.slack.userRunsCommand({ user: 'U1', channel: dm, command: '/imagine', text: 'a red kite' });
    expect(await jobFinished(h.store, `slack-cmd-${run.triggerId}`)).toMatchObject({ outcome: 'done' });
    const imagined = await known(
      h,
      await h.slack.waitFor(() =>
        h.slack.workspace
          .botMessages(h.slack.identity.botUserId, { channel: dm })
          .find((message) => message.fileIds.length > 0 && message.threadTs === undefined),
      ),
    );
    expect(buttonsOf(imagined).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit']);

    await pressButton(h.slack, imagined, 'Re-roll', 'U1');
    const again = await nthResult(h, dm, imagined.ts, 0);
    expect(buttonsOf(again).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit']);
  });

  it('makes one job of a DM that mentions the bot, should Slack send an app_mention besides message.im', async () => {
    const h = get();
    const dm = h.slack.openDm('U1');
    const since = h.emulator.requests.length;
    const text = '<@UBOT> what is two and two? [len:20]';
    const posted = await h.slack.userSays({ user: 'U1', channel: dm, text });
    // Slack documents that it sends no app_mention for DMs; the fake sends none either.
    expect(posted.deliveries.map((delivery) => delivery.eventType)).toEqual(['message']);
    const eventId = 'EvDmMention0001';
    const mention = await h.slack.replay('events_api', {
      token: 'verification_token',
      team_id: 'T1',
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      event: { type: 'app_mention', user: 'U1', channel: dm, ts: posted.ts, event_ts: posted.ts, text },
    });
    expect(mention.acked).toBe(true);
    await turnDone(h, posted);

    const requests = await requestsUntilMarker(h, since);
    expect(requests.filter((request) => request.path.endsWith('/v1/messages'))).toHaveLength(1);
    expect(await h.store.jobs.get(`slack-ev-${eventId}`)).toBeUndefined();
    expect(textReplies(h.slack, dm, posted.ts)).toHaveLength(1);
  });

  it('stops the reply when the person deletes their DM', async () => {
    const h = get();
    const dm = h.slack.openDm('U2');
    const posted = await h.slack.userSays({ user: 'U2', channel: dm, text: 'a long story [len:3000] [delay:200]' });
    await h.slack.waitFor(() => textReplies(h.slack, dm, posted.ts).find((message) => message.text.length > 20), {
      timeoutMs: 15_000,
    });
    await h.slack.userDeletes({ channel: dm, ts: posted.ts });
    await h.slack.waitFor(
      () => textReplies(h.slack, dm, posted.ts).find((message) => message.text.endsWith(copy.cancelled)),
      { timeoutMs: 15_000 },
    );
    // Its job ends (its usage recorded) before the next test counts anything.
    await jobFinished(h.store, turnJobId(posted));
  });

  it("keeps a DM to itself: not in info logs, not in a channel's conversation or thread cache; its usage is the person's", async () => {
    const h = get();
    const dm = h.slack.openDm('U3');
    const secret = 'my quiet plan is to paint the shed teal';
    const usage = { platform: 'slack' as const, workspaceId: h.slack.identity.teamId, userId: 'U3' };
    const before = (await h.store.usage.totals(usage)).today;
    const posted = await h.slack.userSays({ user: 'U3', channel: dm, text: `${secret} [len:30]` });
    await turnDone(h, posted);
    const after = (await h.store.usage.totals(usage)).today;
    expect(after.jobs).toBe(before.jobs + 1);
    expect(after.inputTokens).toBeGreaterThan(before.inputTokens);

    // The DM's thread is kept under the DM's own ID.
    const kept = await h.store.threads.thread('slack', dm, posted.ts);
    expect(kept.map((message) => message.text)).toContain(`${secret} [len:30]`);

    const since = h.emulator.requests.length;
    const mention = await h.slack.userSays({
      user: 'U3',
      channel: CHANNEL,
      text: '<@UBOT> what did I tell you? [len:20]',
    });
    expect(
      await jobFinished(h.store, `slack-ev-${mention.deliveries.find((d) => d.eventType === 'app_mention')?.eventId}`),
    ).toMatchObject({ outcome: 'done' });
    expect(JSON.stringify(h.emulator.requests.slice(since).map((request) => request.body))).not.toContain(secret);
    const channelThread = await h.store.threads.thread('slack', CHANNEL, mention.ts);
    expect(channelThread.length).toBeGreaterThan(0);
    expect(JSON.stringify(channelThread)).not.toContain(secret);

    expect(infoLogs(h).filter((line) => line.includes('shed teal'))).toEqual([]);
    expect(infoLogs(h).some((line) => line.includes('direct message queued'))).toBe(true);
  });
});

describe('Slack direct messages with native streaming', () => {
  const get = useHarness({ mode: 'http', streaming: 'native', fake: { events: SUBSCRIBED } });

  it('streams the answer to a DM into its thread, for the person who wrote it', async () => {
    const h = get();
    const dm = h.slack.openDm('U1');
    const since = h.emulator.requests.length;
    const posted = await h.slack.userSays({ user: 'U1', channel: dm, text: 'say something kind [len:60]' });
    await turnDone(h, posted);
    const [reply, ...more] = repliesIn(h.slack, dm, posted.ts);
    expect(more).toEqual([]);
    expect(reply).toMatchObject({
      threadTs: posted.ts,
      text: await expectedReply(h, since),
      stream: { state: 'stopped', recipientUserId: 'U1', recipientTeamId: h.slack.identity.teamId },
    });
  });
});
