import { copy } from '@genbot/core/copy';
import type { SlackFake, SlackMessage, SlackPostedMessage, SlackStreamChunk } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jobFinished } from '../support/job-finished.js';
import { Gate } from './support/gate.js';
import { botReplies, CHANNEL, generateContentRequests, type Harness, SECRETS, useHarness } from './support/harness.js';
import { colourPng, isGreyscale } from './support/images.js';
import { buttonsOf, pressButton, results, shownText } from './support/result-messages.js';
import { versions } from './support/text.js';

/**
 * The conversation of issue 29 on Slack, through the real Bolt and the fake:
 * the model sees the thread's images, and draws or edits through its tools
 * (the emulator calls them for "draw…" and "make it…"), each result a version
 * with the buttons of /imagine.
 */

/** The mention's job, once it finished: the reply, its tools' results and its closing words are all out. */
async function mentionDone(h: Harness, mention: SlackPostedMessage): Promise<void> {
  const eventId = mention.deliveries.find((delivery) => delivery.eventType === 'app_mention')?.eventId;
  expect(await jobFinished(h.store, `slack-ev-${eventId}`)).toMatchObject({ outcome: 'done' });
}

/** A message that shows a result, once its versions know it (what the buttons and later edits find it by). */
async function known(h: Harness, message: SlackMessage): Promise<SlackMessage> {
  await eventually(
    async () => (await h.store.versions.byMessage('slack', CHANNEL, message.ts)).length > 0 || undefined,
  );
  return message;
}

/** The `n`th result in a thread (0-based), once its versions know it. */
async function nthResult(h: Harness, threadTs: string, n: number): Promise<SlackMessage> {
  return known(h, await h.slack.waitFor(() => results(h.slack, CHANNEL, threadTs)[n], 30_000));
}

/** /imagine as U1: its result once the job finished. */
async function imagined(h: Harness, prompt: string): Promise<SlackMessage> {
  const run = await h.slack.userRunsCommand({ user: 'U1', channel: CHANNEL, command: '/imagine', text: prompt });
  const jobId = `slack-cmd-${run.triggerId}`;
  await jobFinished(h.store, jobId);
  const fileId = (await h.store.versions.get({ jobId, index: 0 }))?.fileId;
  const shown = h.slack.workspace.messages.find((message) => message.fileIds.includes(fileId ?? ''));
  if (shown === undefined) throw new Error(`no message shows the result of ${jobId}`);
  return known(h, shown);
}

/** The bot's text replies in a thread (its results left out), oldest first. */
function textReplies(slack: SlackFake, threadTs: string): SlackMessage[] {
  return botReplies(slack, threadTs).filter((message) => message.fileIds.length === 0);
}

function bytesOf(slack: SlackFake, message: SlackMessage): Buffer {
  const bytes = slack.workspace.files.get(message.fileIds[0] ?? '')?.bytes;
  if (bytes === undefined) throw new Error(`no file bytes on ${message.ts}`);
  return bytes;
}

function messagesRequestsSince(h: Harness, since: number) {
  return h.emulator.requests.slice(since).filter((request) => request.path.endsWith('/v1/messages'));
}

/**
 * What the model said in each messages request from `since` on: the same
 * requests sent again without streaming (the emulator's answers are
 * deterministic), their text blocks joined.
 */
async function modelWords(h: Harness, since: number): Promise<string[]> {
  const sent = messagesRequestsSince(h, since);
  const words: string[] = [];
  for (const request of sent) {
    const response = await fetch(`${h.emulator.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': SECRETS.apiKey,
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({ ...(request.body as object), stream: false }),
    });
    const json = (await response.json()) as { content: Array<{ type: string; text?: string }> };
    words.push(json.content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join(''));
  }
  return words;
}

async function imagesToday(h: Harness, userId: string): Promise<number> {
  const totals = await h.store.usage.totals({ platform: 'slack', workspaceId: h.slack.identity.teamId, userId });
  return totals.today.images;
}

type TaskUpdate = Extract<SlackStreamChunk, { type: 'task_update' }>;

function taskUpdates(message: SlackMessage | undefined): TaskUpdate[] {
  return (message?.stream?.chunks ?? []).filter((chunk): chunk is TaskUpdate => chunk.type === 'task_update');
}

describe('Slack: a conversation that sees images and draws and edits through its tools', () => {
  const get = useHarness({ mode: 'http' });

  it("answers a question about an /imagine result in its thread from the image's pixels: nothing drawn, no image counted", async () => {
    const h = get();
    const result = await imagined(h, 'a lighthouse at dusk');
    const size = await sharp(bytesOf(h.slack, result)).metadata();
    const counted = await imagesToday(h, 'U1');
    const since = h.emulator.requests.length;
    const question = await h.slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      threadTs: result.ts,
      text: '<@UBOT> what colours are in this?',
    });
    await mentionDone(h, question);

    const sent = messagesRequestsSince(h, since);
    expect(sent).toHaveLength(1);
    // The result reached the model as an image block (the bot read it back from Slack).
    expect(JSON.stringify(sent[0]?.body)).toContain(
      '"type":"image","source":{"type":"base64","media_type":"image/png"',
    );
    const [answer] = await modelWords(h, since);
    expect(answer).toMatch(new RegExp(`^Image 1 is ${size.width} × ${size.height} pixels, PNG, mostly `));
    expect(textReplies(h.slack, result.ts).map((reply) => reply.text)).toEqual([answer]);
    expect(generateContentRequests(h, since)).toBe(0);
    expect(results(h.slack, CHANNEL, result.ts)).toEqual([]);
    expect(await imagesToday(h, 'U1')).toBe(counted);
  });

  it('draws "a lighthouse at dawn, wide" in the thread with the buttons of /imagine, says so after, and Vary works on it', async () => {
    const h = get();
    const since = h.emulator.requests.length;
    const mention = await h.slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: '<@UBOT> draw a lighthouse at dawn, wide',
    });
    await mentionDone(h, mention);

    const drawn = await nthResult(h, mention.ts, 0);
    expect(shownText(drawn)).toBe(copy.imageComment('draw a lighthouse at dawn, wide'));
    expect(buttonsOf(drawn).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit']);
    const drawing = h.emulator.requests.slice(since).filter((request) => request.path.includes(':generateContent'));
    expect(drawing).toHaveLength(1);
    expect(JSON.stringify(drawing[0]?.body)).toContain('16:9');
    const size = await sharp(bytesOf(h.slack, drawn)).metadata();
    expect(size.width).toBeGreaterThan(size.height ?? Number.POSITIVE_INFINITY);

    // The words before the tool, then the closing words the model wrote once it had the tool's result.
    const [before, closing] = await modelWords(h, since);
    const [second] = messagesRequestsSince(h, since).slice(1);
    expect(JSON.stringify(second?.body)).toContain('"type":"tool_result"');
    expect(JSON.stringify(second?.body)).not.toContain('"is_error"');
    expect(textReplies(h.slack, mention.ts).map((reply) => reply.text)).toEqual([`${before}\n\n${closing}`]);

    await pressButton(h.slack, drawn, 'Vary');
    const varied = await nthResult(h, mention.ts, 1);
    expect(shownText(varied)).toBe(copy.variedComment(2, 1));
    expect(buttonsOf(varied).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
  });

  it('edits an /imagine result by mention as "v2 · from v1"; Vary under v2 varies v2, and Undo shows v1 again', async () => {
    const h = get();
    const first = await imagined(h, 'a red kite');
    const counted = await imagesToday(h, 'U2');
    const mention = await h.slack.userSays({
      user: 'U2',
      channel: CHANNEL,
      threadTs: first.ts,
      text: '<@UBOT> make it black and white',
    });
    await mentionDone(h, mention);

    const v2 = await nthResult(h, first.ts, 0);
    // The mention's edit records its version: its lineage shows, with Undo and Re-roll.
    expect(shownText(v2)).toMatch(/^🖌️ v2 · from v1 · “[^”]*make it black and white”$/);
    expect(buttonsOf(v2).map((button) => button.label)).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
    expect(await isGreyscale(bytesOf(h.slack, v2))).toBe(true);
    expect(await imagesToday(h, 'U2')).toBe(counted + 1);

    // Vary under v2 varies v2 (sent its bytes), not the image the thread started with.
    const sinceVary = h.emulator.requests.length;
    await pressButton(h.slack, v2, 'Vary');
    const v3 = await nthResult(h, first.ts, 1);
    expect(shownText(v3)).toBe(copy.variedComment(3, 2));
    const varying = h.emulator.requests.slice(sinceVary).find((request) => request.path.includes(':generateContent'));
    expect(JSON.stringify(varying?.body)).toContain(bytesOf(h.slack, v2).toString('base64'));

    await pressButton(h.slack, v2, 'Undo');
    const restored = await nthResult(h, first.ts, 2);
    expect(shownText(restored)).toBe(copy.restoredComment(1, 2));
    expect(bytesOf(h.slack, restored).equals(bytesOf(h.slack, first))).toBe(true);

    // The next mention edits the latest image of the thread, v1 shown again, and numbers it on in the tree.
    const again = await h.slack.userSays({
      user: 'U2',
      channel: CHANNEL,
      threadTs: first.ts,
      text: '<@UBOT> make it blue',
    });
    await mentionDone(h, again);
    const v4 = await nthResult(h, first.ts, 3);
    expect(shownText(v4)).toMatch(/^🖌️ v4 · from v1 · “[^”]*make it blue”$/);
    // One thread, one number per version.
    const labels = results(h.slack, CHANNEL, first.ts).map((result) => /v\d+/.exec(shownText(result))?.[0]);
    expect(labels).toEqual(['v2', 'v3', 'v1', 'v4']);
  });

  it("a file Slack will not give (its sign-in page instead): the reply's note names files:read, and the conversation still answers", async () => {
    const h = get();
    const parent = await h.slack.userSays({ user: 'U2', channel: CHANNEL, text: 'Lighthouses guided ships home.' });
    const since = h.emulator.requests.length;
    const signInPage = h.slack.failDownloads({ status: 200 });
    try {
      const mention = await h.slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        threadTs: parent.ts,
        text: '<@UBOT> what does my note add?',
        files: [{ name: 'notes.txt', bytes: Buffer.from('The lamp was lit at dusk.'), mimetype: 'text/plain' }],
      });
      await mentionDone(h, mention);
    } finally {
      signInPage();
    }
    const sent = messagesRequestsSince(h, since);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]?.body)).toContain('Lighthouses guided ships home.');
    expect(JSON.stringify(sent[0]?.body)).not.toContain('The lamp was lit');
    const [answer] = await modelWords(h, since);
    const note = copy.fileUnavailable('notes.txt', 'not_allowed');
    expect(note).toContain('`files:read`');
    expect(textReplies(h.slack, parent.ts).map((reply) => reply.text)).toEqual([`${answer}\n\n${note}`]);
  });
});

describe('Slack: while a tool draws, with replies edited in place', () => {
  const gate = new Gate();
  const get = useHarness({ mode: 'http', beforeImages: () => gate.pass() });

  it('the reply shows the italic "Drawing…" line while the tool runs, and not at the end', async () => {
    const h = get();
    const since = h.emulator.requests.length;
    const drawingLine = `_${copy.drawingActivity('draw a fox in the snow')}_`;
    const release = gate.hold();
    let mention: SlackPostedMessage;
    try {
      mention = await h.slack.userSays({ user: 'U1', channel: CHANNEL, text: '<@UBOT> draw a fox in the snow' });
      await h.slack.waitFor(
        () => textReplies(h.slack, mention.ts).find((reply) => reply.text.endsWith(`\n\n${drawingLine}`)),
        15_000,
      );
      expect(generateContentRequests(h, since)).toBe(0);
    } finally {
      release();
    }
    await mentionDone(h, mention);
    const [before, closing] = await modelWords(h, since);
    const [reply] = textReplies(h.slack, mention.ts);
    expect(versions(reply!)).toContain(`${before}\n\n${drawingLine}`);
    expect(reply?.text).toBe(`${before}\n\n${closing}`);
    expect(reply?.text).not.toContain('Drawing');
    expect(results(h.slack, CHANNEL, mention.ts)).toHaveLength(1);
  });
});

describe("Slack: while a tool draws, with Slack's native streaming", () => {
  const gate = new Gate();
  const get = useHarness({ mode: 'socket', streaming: 'native', beforeImages: () => gate.pass() });

  it('the stream shows a task_update (plain-text title) in progress while drawing, then complete; its text never carries it', async () => {
    const h = get();
    const since = h.emulator.requests.length;
    const release = gate.hold();
    let mention: SlackPostedMessage;
    let started: TaskUpdate;
    try {
      mention = await h.slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: '<@UBOT> draw a *bold* fox on _thin_ ice',
      });
      started = await h.slack.waitFor(() => taskUpdates(textReplies(h.slack, mention.ts)[0])[0], 15_000);
      expect(generateContentRequests(h, since)).toBe(0);
    } finally {
      release();
    }
    await mentionDone(h, mention);
    const [before, closing] = await modelWords(h, since);
    const [reply] = textReplies(h.slack, mention.ts);
    // In Slack's timeline the card stands after the words before the tool, the closing words after it.
    expect(started).toEqual({
      type: 'task_update',
      id: started.id,
      title: copy.drawingActivity('draw a bold fox on thin ice'),
      status: 'in_progress',
      at: before?.length,
    });
    expect(taskUpdates(reply)).toEqual([started, { ...started, status: 'complete' }]);
    expect(reply?.stream?.state).toBe('stopped');
    expect(reply?.text).toBe(`${before}\n\n${closing}`);
    expect(versions(reply!).some((text) => text.includes('Drawing'))).toBe(false);
    expect(results(h.slack, CHANNEL, mention.ts)).toHaveLength(1);
  });
});

describe('Slack: a conversation with CHAT_TOOLS=off', () => {
  const get = useHarness({ mode: 'http', chatTools: 'off' });

  it('"draw a fox" draws nothing, and an image on the mention still reaches the model', async () => {
    const h = get();
    const since = h.emulator.requests.length;
    const mention = await h.slack.userSays({
      user: 'U1',
      channel: CHANNEL,
      text: '<@UBOT> draw a fox like this one',
      files: [{ name: 'fox.png', bytes: await colourPng() }],
    });
    await mentionDone(h, mention);
    const sent = messagesRequestsSince(h, since);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).not.toHaveProperty('tools');
    expect(JSON.stringify(sent[0]?.body)).toContain('"type":"image"');
    const [answer] = await modelWords(h, since);
    expect(answer).toMatch(/^Image 1 is 48 × 32 pixels/);
    expect(textReplies(h.slack, mention.ts).map((reply) => reply.text)).toEqual([answer]);
    expect(generateContentRequests(h, since)).toBe(0);
    expect(results(h.slack, CHANNEL, mention.ts)).toEqual([]);
  });
});
