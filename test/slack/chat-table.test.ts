import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  botReplies,
  CHANNEL,
  expectedReply,
  generateContentRequests,
  messagesRequests,
  replyMatching,
  replyWithText,
  requestsUntilMarker,
  useHarness,
  type Mode,
  type Streaming,
} from './support/harness.js';
import { colourPng, isGreyscale } from './support/images.js';
import { jobFinished } from '../support/job-finished.js';
import { resultOf, shownText } from './support/result-messages.js';
import { versions } from './support/text.js';

/**
 * The chat behaviour table of CONTRACT.md on Slack, row by row, over HTTP and
 * Socket Mode, with both streaming strategies where a reply streams.
 */
const MODES: Mode[] = ['http', 'socket'];
const STREAMINGS: Streaming[] = ['edit', 'native'];

describe.each(MODES)('Slack over %s', (mode) => {
  describe.each(STREAMINGS)('streaming by %s', (streaming) => {
    const h = useHarness({ mode, streaming });

    it('answers a mention in its thread, streamed, with the thread as the conversation', async () => {
      const { slack } = h();
      const parent = await slack.userSays({
        user: 'U2',
        channel: CHANNEL,
        text: 'Lighthouses guided ships along the coast.',
      });
      const since = h().emulator.requests.length;
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        threadTs: parent.ts,
        text: '<@UBOT> tell me more about them [len:700] [delay:200]',
      });
      expect(mention.deliveries.find((d) => d.eventType === 'app_mention')?.acked).toBe(true);
      const expected = await expectedReply(h(), since);
      const sent = h()
        .emulator.requests.slice(since)
        .find((r) => r.path.endsWith('/v1/messages'))?.body;
      expect(JSON.stringify(sent)).toContain('Lighthouses guided ships');

      const [reply, ...more] = await replyWithText(slack, parent.ts, expected);
      expect(more).toEqual([]);
      expect(reply?.text).toBe(expected);
      const shown = versions(reply ?? slack.workspace.messages[0]!);
      // Visible streaming: partial text was shown before the complete reply.
      const partial = shown.filter((text) => text !== expected && text.length > 0 && expected.startsWith(text));
      expect(partial.length).toBeGreaterThanOrEqual(1);
      if (streaming === 'native') {
        expect(reply?.stream?.state).toBe('stopped');
        expect(reply?.stream?.recipientUserId).toBe('U1');
        expect(slack.workspace.statuses.some((s) => s.threadTs === parent.ts && /thinking/.test(s.status))).toBe(true);
        const calls = slack.calls.filter((c) => c.args.ts === reply?.ts && c.method === 'chat.appendStream');
        expect(calls.length).toBeGreaterThanOrEqual(1);
      } else {
        // Posted as soon as the first text arrives: the first version shown is already the reply's first words.
        expect(expected.startsWith(shown[0] ?? 'x')).toBe(true);
      }
      expect(messagesRequests(h(), since)).toBe(2);
    });

    it('ends a reply cut by a mid-stream error with a short human line', async () => {
      const { slack } = h();
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: '<@UBOT> explain tides [len:400] [fault:stream-error]',
      });
      const [reply] = await replyMatching(slack, mention.ts, /incomplete/);
      expect(reply?.text).toMatch(/You said/);
      expect(reply?.text).toMatch(/This reply is incomplete\. .*(again|retry)/i);
      expect(reply?.text).not.toMatch(/Error:|at .*\.ts:\d+|overloaded_error/);
    });

    it('answers a safety refusal with a short human line', async () => {
      const { slack } = h();
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: '<@UBOT> something forbidden [fault:safety]',
      });
      const [reply] = await replyMatching(slack, mention.ts, /can't help/);
      expect(reply?.text).toBe("I can't help with that one. Try rewording it.");
    });
  });

  describe('commands, images and refusals', () => {
    const h = useHarness({ mode });

    it('/imagine: a progress message at once, then the JPEG as a file with the prompt', async () => {
      const { slack } = h();
      const run = await slack.userRunsCommand({
        user: 'U1',
        channel: CHANNEL,
        command: '/imagine',
        text: 'a lighthouse at dusk [format:jpeg] --ar 16:9',
      });
      expect(run.delivery.attempts[0]).toMatchObject({ acked: true });
      const file = await slack.waitFor(
        (ws) =>
          [...ws.files.values()].find(
            (f) => f.channel === CHANNEL && f.completed && f.user === 'UBOT' && f.threadTs === undefined,
          ),
        { timeoutMs: 20_000 },
      );
      expect(shownText(resultOf(slack, file.id))).toContain('a lighthouse at dusk');
      expect(file.name).toMatch(/\.jpe?g$/);
      const meta = await sharp(file.bytes).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.width).toBeGreaterThan(meta.height);
      // The progress message said what it was doing, then gave way to the result.
      const progress = await slack.waitFor(
        (ws) =>
          ws.deleted.find(
            (m) => m.channel === CHANNEL && m.threadTs === undefined && /a lighthouse at dusk/.test(m.text),
          ),
        { timeoutMs: 10_000 },
      );
      expect(progress.text).toMatch(/Generating .*a lighthouse at dusk/);
      const generate = h()
        .emulator.requests.filter((r) => r.path.includes(':generateContent'))
        .at(-1);
      expect(JSON.stringify(generate?.body)).toContain('16:9');
    });

    it('/imagine without a prompt answers with usage help, nothing sent', async () => {
      const { slack } = h();
      const since = h().emulator.requests.length;
      const run = await slack.userRunsCommand({ user: 'U1', channel: CHANNEL, command: '/imagine', text: '  ' });
      expect(run.delivery.attempts[0]).toMatchObject({ acked: true });
      const usage = await slack.waitFor((ws) =>
        ws.ephemerals.find((e) => e.user === 'U1' && /Tell me what to draw/.test(e.text)),
      );
      expect(usage.channel).toBe(CHANNEL);
      expect(generateContentRequests(h(), since)).toBe(0);
    });

    it('edits an image attached to the mention: a greyscale image in the thread', async () => {
      const { slack } = h();
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: '<@UBOT> make it grayscale',
        files: [{ name: 'poster.png', bytes: await colourPng() }],
      });
      const file = await slack.waitFor(
        (ws) => [...ws.files.values()].find((f) => f.threadTs === mention.ts && f.user === 'UBOT' && f.completed),
        { timeoutMs: 20_000 },
      );
      expect(file.bytes).toBeDefined();
      expect(await isGreyscale(file.bytes ?? new Uint8Array())).toBe(true);
      expect(shownText(resultOf(slack, file.id))).toContain('make it grayscale');
      // The conversation goes on after the image (the model's closing words): done before the next test.
      await jobFinished(
        h().store,
        `slack-ev-${mention.deliveries.find((d) => d.eventType === 'app_mention')?.eventId}`,
      );
    });

    it('edits the image earlier in the thread when the mention carries none', async () => {
      const { slack } = h();
      const parent = await slack.userSays({
        user: 'U2',
        channel: CHANNEL,
        text: 'our logo',
        files: [{ name: 'logo.png', bytes: await colourPng() }],
      });
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        threadTs: parent.ts,
        text: '<@UBOT> make it grayscale',
      });
      const file = await slack.waitFor(
        (ws) => [...ws.files.values()].find((f) => f.threadTs === parent.ts && f.user === 'UBOT' && f.completed),
        { timeoutMs: 20_000 },
      );
      expect(await isGreyscale(file.bytes ?? new Uint8Array())).toBe(true);
      await jobFinished(
        h().store,
        `slack-ev-${mention.deliveries.find((d) => d.eventType === 'app_mention')?.eventId}`,
      );
    });

    it('sends a PDF on the mention to the model as a document; asked to edit it, draws nothing', async () => {
      const { slack } = h();
      const since = h().emulator.requests.length;
      const mention = await slack.userSays({
        user: 'U1',
        channel: CHANNEL,
        text: '<@UBOT> make this grayscale',
        files: [
          {
            name: 'report.pdf',
            bytes: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n'),
            mimetype: 'application/pdf',
          },
        ],
      });
      const expected = await expectedReply(h(), since);
      const [reply] = await replyWithText(slack, mention.ts, expected);
      expect(reply?.text).toMatch(/report\.pdf/);
      const sent = h()
        .emulator.requests.slice(since)
        .find((r) => r.path.endsWith('/v1/messages'))?.body;
      expect(JSON.stringify(sent)).toContain('"type":"document"');
      expect(generateContentRequests(h(), since)).toBe(0);
    });

    it('never answers other bots', async () => {
      const { slack } = h();
      const since = h().emulator.requests.length;
      const said = await slack.botSays({ botId: 'B9', channel: CHANNEL, text: '<@UBOT> hello from another bot' });
      const requests = await requestsUntilMarker(h(), since);
      expect(botReplies(slack, said.ts)).toEqual([]);
      expect(requests).toEqual([]);
    });
  });
});
