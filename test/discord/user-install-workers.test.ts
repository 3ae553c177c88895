import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copy } from '@genbot/core/copy';
import { GenAiClient } from '@genbot/core/genai';
import { connectDiscordSurfaces } from '@genbot/discord-bot';
import type { DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, captureLogs, type Harness, openJobsFloor, startHarness } from './support/harness.js';
import { answered, press, resultOf } from './support/results.js';

/**
 * A user install's jobs run by workers that are not the process the
 * interactions reached: the bot here only records and queues them (its own
 * worker never starts), and each job is picked up by a new worker on the same
 * database, as after a restart or in another process (`pnpm worker`). The
 * bot may not read the channel, so all a worker has is the job.
 */
const database = path.join(mkdtempSync(path.join(tmpdir(), 'genbot-user-install-')), 'genbot.db');
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ registerCommands: {}, worker: false, databaseUrl: `sqlite:${database}` });
});

afterAll(async () => {
  await h?.stop();
});

/** A worker of its own (its store, its REST client, nothing of the bot's memory) runs the jobs waiting, and stops. */
async function aNewWorkerRunsWhatWaits(): Promise<void> {
  const { logger } = captureLogs();
  const client = new GenAiClient({ baseUrl: h.emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5, logger });
  const floor = await openJobsFloor({ client, logger, databaseUrl: `sqlite:${database}` });
  const worker = await connectDiscordSurfaces({ token: h.fake.botToken, apiUrl: h.fake.apiUrl });
  try {
    await floor.jobs.startWorker([worker.surfaces]);
    await eventually(async () => ((await floor.store.jobs.unfinished(['discord'])).length === 0 ? true : undefined), {
      what: 'the waiting jobs finished',
    });
  } finally {
    await floor.close();
    await worker.close();
    await client.close();
  }
}

/** The interaction's result, made by a new worker. */
async function resultByANewWorker(started: DiscordInteraction): Promise<DiscordMessage> {
  await answered(h.fake, started);
  await aNewWorkerRunsWhatWaits();
  return resultOf(h.fake, started);
}

describe('Discord user installs, each job run by a worker that never saw the interaction', () => {
  it('varies, re-rolls, undoes and edits a result from the images its presses showed, kept with the jobs', async () => {
    const elsewhere = h.fake.elsewhereChannelId('their-server');
    const started = h.fake.userRunsCommand({
      user: 'ada',
      channelId: elsewhere,
      name: 'imagine',
      options: { prompt: 'a lighthouse' },
    });
    const result = await resultByANewWorker(started);

    const varied = await resultByANewWorker(press(h.fake, 'ada', result, copy.buttonVary()));
    expect(varied.attachments.length).toBeGreaterThan(0);
    expect(varied.content).toBe(copy.variedComment([2], 1));

    // A Re-roll of the variation varies v1 again: v1's image only the Vary press showed.
    const rerolled = await resultByANewWorker(press(h.fake, 'ada', varied, copy.buttonReroll));
    expect(rerolled.content).toBe(copy.variedComment([3], 1));
    // Undo on the re-roll shows v1 again: followed back through the Re-roll to the Vary press.
    const undone = await resultByANewWorker(press(h.fake, 'ada', rerolled, copy.buttonUndo));
    expect(undone.content).toBe(copy.restoredComment(1, 3));
    expect(undone.attachments[0]?.bytes).toEqual(result.attachments[0]?.bytes);

    const opened = await answered(h.fake, press(h.fake, 'ada', varied, copy.buttonEdit()));
    const submit = h.fake.userSubmitsModal({ interactionId: opened.id, values: { instruction: 'make it blue' } });
    const edited = await resultByANewWorker(submit);
    expect(edited.attachments.length).toBeGreaterThan(0);
    expect(edited.content).toBe(copy.editedComment([4], 2, 'make it blue'));
    // Nothing was asked of the channel: the bot may not read it.
    expect(h.fake.state.botRequests.filter((call) => call.path.startsWith(`/channels/${elsewhere}`))).toEqual([]);
  });
});
