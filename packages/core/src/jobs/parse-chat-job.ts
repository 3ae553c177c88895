import { z } from 'zod';
import { copy } from '../copy/copy.js';
import { ASPECT_RATIOS } from '../genai/types.js';
import { MAX_IMAGES_PER_REQUEST } from '../settings/catalogue.js';
import type { JobSettings } from '../settings/job-settings.js';
import type { JobRecord, NewJob } from '../store/index.js';
import { CHAT_JOB_SCHEMA_VERSION, type ChatJob, type ChatJobInput } from './chat-job.js';

/** A stored job this worker cannot run: another schema version, or an input that does not fit it. */
export class UnreadableJobError extends Error {
  override readonly name = 'UnreadableJobError';
}

/** A conversation ingress saw whole is short (the mention and what it replies to). */
const MAX_KNOWN_HISTORY = 2;
/** A press's images: its message's and its version's parent's, each at most 10 files (Discord's limit). */
const MAX_SHOWN = 20;

const target = z.object({ channelId: z.string().min(1), threadId: z.string().min(1).optional() });

const attachment = z.object({
  id: z.string().min(1),
  name: z.string(),
  mimeType: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
});

const message = z.object({
  id: z.string().min(1),
  author: z.object({ id: z.string(), name: z.string(), isBot: z.boolean(), isSelf: z.boolean() }),
  text: z.string(),
  attachments: z.array(attachment),
});

const inputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('imagine'),
    imagine: z.object({
      target,
      prompt: z.string(),
      aspectRatio: z.string().optional(),
      userId: z.string().min(1),
    }),
  }),
  z.object({
    kind: z.literal('mention'),
    mention: z.object({
      target,
      trigger: message,
      referenced: message.optional(),
      history: z.array(message).max(MAX_KNOWN_HISTORY).optional(),
      userId: z.string().min(1),
    }),
  }),
  z.object({
    kind: z.literal('message-edit'),
    edit: z.object({ target, instruction: z.string(), source: message, userId: z.string().min(1) }),
  }),
  ...(['reroll', 'vary', 'edit', 'undo'] as const).map((kind) =>
    z.object({
      kind: z.literal(kind),
      action: z.object({
        target,
        version: z.object({ jobId: z.string().min(1), index: z.number().int().nonnegative() }),
        instruction: z.string().optional(),
        userId: z.string().min(1),
        shown: z.array(attachment).max(MAX_SHOWN).optional(),
      }),
    }),
  ),
]);

const settingsSchema = z.object({
  chatModel: z.string().min(1),
  imageModel: z.string().min(1),
  systemPrompt: z.string().min(1).optional(),
  aspectRatio: z.enum(ASPECT_RATIOS).optional(),
  images: z.number().int().min(1).max(MAX_IMAGES_PER_REQUEST),
  budgetImagesPerDay: z.number().int().nonnegative().optional(),
}) satisfies z.ZodType<JobSettings>;

/** The job's settings travel with its input, under this key (the input's own keys never use it). */
const withSettings = z.object({ settings: settingsSchema.optional() });

/** The stored form of a chat job: what ingress records (no secret but a Discord interaction token). */
export function toNewJob(job: ChatJob): NewJob {
  return {
    id: job.id,
    kind: job.input.kind,
    schemaVersion: CHAT_JOB_SCHEMA_VERSION,
    platform: job.platform,
    workspaceId: job.workspaceId,
    channelId: job.channelId,
    threadId: job.threadId,
    userId: job.userId,
    // JSON round trip: drops undefined fields, as the store would.
    input: JSON.parse(
      JSON.stringify({
        ...inputSchema.parse(job.input),
        ...(job.settings === undefined ? {} : { settings: settingsSchema.parse(job.settings) }),
      }),
    ),
    interaction: job.interaction,
    activeKey: job.activeKey,
  };
}

/** Reads a stored job back into a chat job, or throws `UnreadableJobError` saying why it cannot. */
export function parseChatJob(record: JobRecord): ChatJob {
  if (record.schemaVersion !== CHAT_JOB_SCHEMA_VERSION) {
    throw new UnreadableJobError(
      `job ${record.id} has schema version ${record.schemaVersion}; this worker reads version ${CHAT_JOB_SCHEMA_VERSION}`,
    );
  }
  if (record.input === null) throw new UnreadableJobError(`job ${record.id} has no input (removed by retention)`);
  const parsed = inputSchema.safeParse(record.input);
  if (!parsed.success) {
    throw new UnreadableJobError(`job ${record.id} has an input that does not fit: ${z.prettifyError(parsed.error)}`);
  }
  if (parsed.data.kind !== record.kind) {
    throw new UnreadableJobError(`job ${record.id} is recorded as ${record.kind} but its input is ${parsed.data.kind}`);
  }
  const settings = withSettings.safeParse(record.input);
  if (!settings.success) {
    throw new UnreadableJobError(`job ${record.id} has settings that do not fit: ${z.prettifyError(settings.error)}`);
  }
  return { ...jobOfRecord(record, parsed.data), settings: settings.data.settings };
}

/** The chat job a stored record holds, with `input` as its input (read from the record, or a stand-in). */
export function jobOfRecord(record: JobRecord, input: ChatJobInput): ChatJob {
  return {
    id: record.id,
    platform: record.platform,
    workspaceId: record.workspaceId,
    channelId: record.channelId,
    threadId: record.threadId,
    userId: record.userId,
    input,
    interaction: record.interaction,
  };
}

/** What the person asked, for the messages that quote it back (a restart note). */
export function askedIn(job: ChatJob): string {
  switch (job.input.kind) {
    case 'imagine':
      return job.input.imagine.prompt;
    case 'mention':
      return job.input.mention.trigger.text;
    case 'message-edit':
      return job.input.edit.instruction;
    case 'reroll':
      return copy.buttonReroll;
    case 'vary':
      return copy.buttonVary();
    case 'edit':
      return job.input.action.instruction ?? copy.buttonEdit();
    case 'undo':
      return copy.buttonUndo;
  }
}
