import { copy } from '@genbot/core/copy';
import { GenAiClient } from '@genbot/core/genai';
import type { ChatJob } from '@genbot/core/jobs';
import { connectDiscordSurfaces, registerCommands, type WorkerSurfaces } from '@genbot/discord-bot';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startDiscordFake, type DiscordFake, type DiscordInteraction } from '@genbot/fakes';
import { eventually } from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, BOT_TOKEN, captureLogs, type JobsFloor, openJobsFloor } from './support/harness.js';

/**
 * A user install's jobs as a worker runs them, REST only: the interaction is
 * the only way to the person, its follow-ups are limited and its token ends.
 */
let fake: DiscordFake;
let emulator: Emulator;
let client: GenAiClient;
let floor: JobsFloor;
let worker: WorkerSurfaces;

beforeAll(async () => {
  fake = await startDiscordFake({ botToken: BOT_TOKEN });
  emulator = await startEmulator({ apiKey: API_KEY });
  const { logger } = captureLogs();
  client = new GenAiClient({ baseUrl: emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5, logger });
  floor = await openJobsFloor({ client, logger });
  worker = await connectDiscordSurfaces({ token: fake.botToken, apiUrl: fake.apiUrl });
  await floor.jobs.startWorker([worker.surfaces]);
  // Global, as production registers them: only global commands reach a user install.
  await registerCommands({
    discord: { token: fake.botToken, applicationId: fake.applicationId, apiUrl: fake.apiUrl },
    logger,
  });
});

afterAll(async () => {
  await floor?.close();
  await worker?.close();
  await Promise.allSettled([client?.close(), emulator?.close(), fake?.close()]);
});

/** ada runs `/imagine` in a server the bot is not in, and ingress deferred it publicly. */
async function adaImaginesElsewhere(prompt: string): Promise<DiscordInteraction> {
  const channelId = fake.elsewhereChannelId('their-server');
  const interaction = fake.userRunsCommand({ user: 'ada', channelId, name: 'imagine', options: { prompt } });
  const response = await fetch(`${fake.apiUrl}/v10/interactions/${interaction.id}/${interaction.token}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 5 }),
  });
  expect(response.status).toBe(204);
  return interaction;
}

function imagineJob(interaction: DiscordInteraction, prompt: string, expiresAt: number): ChatJob {
  const userId = fake.state.user('ada').id;
  const target = { channelId: interaction.channelId };
  return {
    id: `dc-int-${interaction.id}`,
    platform: 'discord',
    channelId: interaction.channelId,
    userId,
    input: { kind: 'imagine', imagine: { target, prompt, userId } },
    interaction: { token: interaction.token, expiresAt: new Date(expiresAt) },
  };
}

function channelCalls(channelId: string, since: number): string[] {
  return fake.state.botRequests
    .slice(since)
    .filter((call) => call.path.startsWith(`/channels/${channelId}`))
    .map((call) => `${call.method} ${call.path}`);
}

describe('Discord user installs, run by a worker from the job alone', () => {
  it('never makes a sixth follow-up: past the fifth, the last one is replaced', async () => {
    const interaction = await adaImaginesElsewhere('many words');
    const job = imagineJob(interaction, 'many words', interaction.createdAt + 15 * 60_000);
    const surface = worker.surfaces.surfaceFor(job);
    const target = { channelId: interaction.channelId };
    const before = fake.state.botRequests.length;
    const posted = [];
    for (let n = 1; n <= 8; n += 1) posted.push(await surface.post(target, `line ${n}`));
    const done = fake.state.interaction(interaction.id);
    // The first filled the deferred answer, five are follow-ups, the last two replaced the fifth.
    expect(done?.followUpMessageIds).toHaveLength(5);
    expect(posted[0]?.messageId).toBe(done?.originalMessageId);
    expect(new Set(posted.slice(5).map((ref) => ref.messageId))).toEqual(new Set([done?.followUpMessageIds[4]]));
    const last = fake.state.message(interaction.channelId, done?.followUpMessageIds[4] ?? '');
    expect(last?.content).toBe('line 8');
    expect(channelCalls(interaction.channelId, before)).toEqual([]);
  });

  it('counts the follow-ups of the runs before a resume: Discord counts per interaction', async () => {
    const interaction = await adaImaginesElsewhere('a long story');
    const job = imagineJob(interaction, 'a long story', interaction.createdAt + 15 * 60_000);
    const target = { channelId: interaction.channelId };
    // The run a restart stopped: the deferred answer and three follow-ups, each recorded as a step.
    const before = worker.surfaces.surfaceFor(job);
    const steps = [];
    for (let index = 0; index < 4; index += 1) {
      const ref = await before.post(target, `line ${index + 1}`);
      steps.push({ name: 'posted', index, messageId: ref.messageId, at: new Date() });
    }
    // The run that resumes it, from the job and its recorded steps.
    const resumed = worker.surfaces.surfaceFor(job, steps);
    const posted = [];
    for (let n = 5; n <= 8; n += 1) posted.push(await resumed.post(target, `line ${n}`));
    const done = fake.state.interaction(interaction.id);
    expect(done?.followUpMessageIds).toHaveLength(5);
    // Two more fit; the next two replaced the fifth.
    expect(new Set(posted.slice(2).map((ref) => ref.messageId))).toEqual(new Set([done?.followUpMessageIds[4]]));
    expect(fake.state.message(interaction.channelId, done?.followUpMessageIds[4] ?? '')?.content).toBe('line 8');
  });

  it('says in the answer that the time ran out, asks the service for nothing, and goes to no channel, when the token nears its end', async () => {
    const prompt = 'a slow sunrise';
    const interaction = await adaImaginesElsewhere(prompt);
    const before = fake.state.botRequests.length;
    // Inside the last 30 s of the token: the answer can still be edited, but no result will make it.
    const job = imagineJob(interaction, prompt, Date.now() + 20_000);
    expect(await floor.jobs.botJobs.intake.submit(job)).toMatchObject({ accepted: true });
    await eventually(async () => ((await floor.store.jobs.get(job.id))?.state === 'finished' ? true : undefined), {
      what: `job ${job.id} finished`,
    });
    const done = fake.state.interaction(interaction.id);
    const original = fake.state.message(interaction.channelId, done?.originalMessageId ?? '');
    expect(original?.content).toBe(copy.interactionTimeRunningOut);
    expect(original?.attachments).toEqual([]);
    expect(done?.followUpMessageIds).toEqual([]);
    expect(channelCalls(interaction.channelId, before)).toEqual([]);
    // Nothing was drawn that no one could see: the quota and the service are spared.
    expect(emulator.requests.filter((request) => JSON.stringify(request.body).includes(prompt))).toEqual([]);
  });
});
