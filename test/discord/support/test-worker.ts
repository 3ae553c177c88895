import { type ChatDeps, handleMention, imagine } from '@genbot/core/chat';
import { ChannelBudget } from '@genbot/core/rendering';
import { GenAiClient } from '@genbot/core/genai';
import type { Logger } from '@genbot/core/log';
import type { ChatJob, IntakeResult, JobIntake, SurfaceFactory, UsageReporter } from '@genbot/core/jobs';
import { connectDiscordSurfaces, type DiscordConfig } from '@genbot/discord-bot';
import type { DiscordFake } from '@genbot/fakes';
import type { Emulator } from '@genbot/emulator';
import { API_KEY, CHAT_MODEL, IMAGE_MODEL } from './harness.js';

/** A job as it comes back from storage: JSON, with the token's expiry a date again. */
export function fromStorage(json: string): ChatJob {
  const job = JSON.parse(json) as ChatJob & { interaction?: { token: string; expiresAt: string } };
  return job.interaction === undefined
    ? job
    : { ...job, interaction: { ...job.interaction, expiresAt: new Date(job.interaction.expiresAt) } };
}

/** Runs a job the way a worker does: the use case it names, on the surface its platform builds from the job. */
export async function runJob(job: ChatJob, surfaces: SurfaceFactory, deps: Omit<ChatDeps, 'surface'>): Promise<void> {
  const withSurface = { ...deps, surface: surfaces.surfaceFor(job) };
  if (job.input.kind === 'imagine') await imagine(job.input.imagine, withSurface, new AbortController().signal);
  else if (job.input.kind === 'mention')
    await handleMention(job.input.mention, withSurface, new AbortController().signal);
}

/**
 * The other side of the JobIntake port, as small as it gets: what ingress
 * submitted is kept as JSON (as a store would), users over their "quota" are
 * refused, and accepted jobs run from their stored form alone on REST-only
 * surfaces (no gateway). The Discord bot under test cannot tell it from the
 * real intake.
 */
export class TestWorker implements JobIntake, UsageReporter {
  /** Every submission, repeats included, as stored. */
  readonly submitted: string[] = [];
  readonly #ran = new Set<string>();
  readonly #running: Promise<void>[] = [];
  readonly #overQuota: ReadonlySet<string>;
  readonly #deps: Omit<ChatDeps, 'surface'>;
  readonly #surfaces: SurfaceFactory;
  readonly #close: () => Promise<void>;
  /** While set, jobs wait for it before they run, as they would in a long queue. */
  #held: Promise<void> | undefined;

  static async start(options: {
    fake: DiscordFake;
    emulator: Emulator;
    logger: Logger;
    overQuota?: readonly string[];
  }): Promise<TestWorker> {
    const { fake, emulator, logger } = options;
    const discord: DiscordConfig = { token: fake.botToken, apiUrl: fake.apiUrl };
    const { surfaces, close } = await connectDiscordSurfaces(discord);
    const client = new GenAiClient({ baseUrl: emulator.url, apiKey: API_KEY, retryBaseDelayMs: 5, logger });
    const deps = {
      images: client,
      chat: client,
      config: { imageModel: IMAGE_MODEL, chatModel: CHAT_MODEL },
      logger,
      channels: new ChannelBudget(),
    };
    return new TestWorker(surfaces, deps, new Set(options.overQuota), async () => {
      await close();
      await client.close();
    });
  }

  private constructor(
    surfaces: SurfaceFactory,
    deps: Omit<ChatDeps, 'surface'>,
    overQuota: ReadonlySet<string>,
    close: () => Promise<void>,
  ) {
    this.#surfaces = surfaces;
    this.#deps = deps;
    this.#overQuota = overQuota;
    this.#close = close;
  }

  /** What it answers a user over "quota". */
  static quotaAnswer(userId: string): string {
    return `over quota: ${userId}`;
  }

  async submit(job: ChatJob): Promise<IntakeResult> {
    this.submitted.push(JSON.stringify(job));
    if (this.#overQuota.has(job.userId)) return { accepted: false, answer: TestWorker.quotaAnswer(job.userId) };
    if (this.#ran.has(job.id)) return { accepted: true, duplicate: true };
    this.#ran.add(job.id);
    const stored = JSON.stringify(job);
    // Taken after ingress returns, as a queue hands it out.
    const held = this.#held;
    this.#running.push(
      new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => held)
        .then(() => runJob(fromStorage(stored), this.#surfaces, this.#deps)),
    );
    return { accepted: true, duplicate: false, position: 0 };
  }

  async answer(scope: { platform: string; userId: string; workspaceId?: string | undefined }): Promise<string> {
    return `usage of ${scope.userId} in ${scope.workspaceId ?? 'no guild'} on ${scope.platform}`;
  }

  get surfaces(): SurfaceFactory {
    return this.#surfaces;
  }

  get deps(): Omit<ChatDeps, 'surface'> {
    return this.#deps;
  }

  /** Jobs submitted from now on wait until the returned function is called. */
  hold(): () => void {
    let release = (): void => undefined;
    this.#held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return () => {
      this.#held = undefined;
      release();
    };
  }

  /** Resolves once every job taken so far has ended. */
  async idle(): Promise<void> {
    await Promise.allSettled(this.#running);
  }

  async close(): Promise<void> {
    await this.idle();
    await this.#close();
  }
}
