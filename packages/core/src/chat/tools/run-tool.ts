import { copy } from '../../copy/copy.js';
import { describeError, isExpectedFailure } from '../../genai/describe-error.js';
import { releaseBytes } from '../../genai/owned-bytes.js';
import type { GeneratedImage, InputImage, ToolUse } from '../../genai/types.js';
import { imageFileStem } from '../../files/file-names.js';
import type { ReplyWriter } from '../../rendering/reply-pump.js';
import type { VersionLineage } from '../version-lineage.js';
import { JobRejectedError } from '../../scheduling/job-rejected-error.js';
import { stoppedEarly } from '../../scheduling/stopped-early.js';
import type { ChatTarget } from '../../surface/surface.js';
import type { ConversationImage } from '../conversation-files.js';
import type { ChatDeps } from '../deps.js';
import { runModelCall } from '../run-model-call.js';
import { loadSourceImage } from '../source-image.js';
import { deliverImages, type ResultText } from '../upload-images.js';
import { pickImage } from './pick-image.js';
import { type EditInput, type GenerateInput, toolRequest } from './tool-input.js';

/** Where a tool call runs: the conversation it belongs to and the reply that shows its progress. */
export interface ToolContext {
  target: ChatTarget;
  /** Whose images these are: the person asking (quotas, the scheduler's share). */
  userId: string | undefined;
  /** The conversation's images, oldest first: the only ones a tool may touch. */
  images: readonly ConversationImage[];
  /** The call's number in the job, 0-based: its recorded steps are found by it. */
  call: number;
  /** Says what the tool does while it runs. */
  reply: ReplyWriter;
  /** Adds genbot's own words to the reply, a paragraph of their own: a refusal, as /imagine would say it. */
  tell(answer: string): void;
  signal: AbortSignal | undefined;
}

/** What goes back to the model as the call's `tool_result`. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

/** One image-making call: what it asks, how it shows, and how it reads its input and draws. */
interface ToolImages<T> {
  name: 'generate_image' | 'edit_image';
  count: number;
  activity: string;
  input(signal: AbortSignal | undefined): Promise<{ ok: true; value: T } | { ok: false; answer: string }>;
  generate(input: T, signal: AbortSignal | undefined): Promise<GeneratedImage[]>;
  lineage(): Promise<{ lineage: VersionLineage; comment: ResultText }>;
  stem: string;
  failed(description: ReturnType<typeof describeError>): string;
  done(uploaded: number, numbers: readonly number[]): string;
}

const failure = (content: string): ToolResult => ({ content, isError: true });

/**
 * Runs one tool call of a conversation through the image use cases' parts:
 * the call's input checked at its edge, the images reserved against the
 * quotas before anything is sent, the model call under the person's share
 * of the image lane, the result uploaded as any result (versions, buttons).
 * Bad input, a refusal or a failure is an error result the model can
 * explain; a refusal or failure is told to the person by genbot too. Rejects
 * only when the conversation is stopped (cancelled, a restart, handed over).
 */
export async function runTool(use: ToolUse, context: ToolContext, deps: ChatDeps): Promise<ToolResult> {
  if (use.kind === 'invalid') {
    deps.logger.warn({ tool: use.name, problem: use.problem }, 'tool call with unreadable input');
    return failure(copy.toolResult.unreadableInput(use.problem));
  }
  const request = toolRequest(use.name, use.input);
  switch (request.tool) {
    case 'invalid':
      deps.logger.warn({ tool: use.name, problem: request.problem }, 'tool call refused');
      return failure(copy.toolResult.badInput(request.problem));
    case 'generate':
      return makeImages(generateImages(request.input, deps), context, deps);
    case 'edit': {
      const picked = pickImage(context.images, request.input.image);
      if (!picked.ok) {
        const names = context.images.map((image) => image.name);
        return failure(
          picked.problem === 'none'
            ? copy.toolResult.noImage
            : copy.toolResult.unknownImage(request.input.image ?? '', names),
        );
      }
      return makeImages(editImages(request.input, picked.image, deps), context, deps);
    }
  }
}

function generateImages(input: GenerateInput, deps: ChatDeps): ToolImages<GenerateInput> {
  const { prompt } = input;
  // Without a count or a ratio in the call, the place's `images` and `aspect_ratio`.
  const count = input.count ?? deps.config.images ?? 1;
  const aspectRatio = input.aspect_ratio ?? deps.config.aspectRatio;
  return {
    name: 'generate_image',
    count,
    activity: copy.drawingActivity(prompt),
    input: async () => ({ ok: true, value: input }),
    generate: (value, signal) =>
      deps.images.generateImages(
        deps.config.imageModel,
        {
          prompt: value.prompt,
          ...(aspectRatio === undefined ? {} : { aspectRatio }),
          ...(count === 1 ? {} : { count }),
        },
        signal === undefined ? {} : { signal },
      ),
    lineage: async () => ({
      lineage: { origin: 'generated', prompt, aspectRatio, reroll: true, undo: false },
      comment: { text: copy.imageComment(prompt) },
    }),
    stem: imageFileStem({ prompt }),
    failed: (description) => copy.imagineFailed(prompt, description),
    done: (uploaded, numbers) => copy.toolResult.generated(prompt, uploaded, numbers),
  };
}

function editImages(input: EditInput, source: ConversationImage, deps: ChatDeps): ToolImages<InputImage> {
  const { instruction } = input;
  return {
    name: 'edit_image',
    count: 1,
    activity: copy.editingActivity(instruction),
    // The image's own bytes as the platform holds them, not the scaled copy the model saw.
    input: async (signal) => {
      const loaded = await loadSourceImage(deps, source.attachment, signal);
      return loaded.ok ? { ok: true, value: loaded.image } : loaded;
    },
    generate: (image, signal) =>
      deps.images.generateImages(
        deps.config.imageModel,
        {
          prompt: instruction,
          image,
          ...(input.aspect_ratio === undefined ? {} : { aspectRatio: input.aspect_ratio }),
        },
        signal === undefined ? {} : { signal },
      ),
    lineage: async () => {
      const parent = await deps.toolJob?.versionOf({ messageId: source.messageId, position: source.position });
      const lineage: VersionLineage = {
        origin: 'edited',
        parent: parent?.key,
        prompt: instruction,
        aspectRatio: input.aspect_ratio,
        reroll: parent !== undefined,
        undo: parent !== undefined,
      };
      const comment: ResultText =
        parent === undefined
          ? { text: copy.editComment(instruction) }
          : {
              text: copy.editComment(instruction),
              numbered: (numbers) => copy.editedComment(numbers, parent.number, instruction),
            };
      return { lineage, comment };
    },
    stem: imageFileStem({ prompt: instruction, sourceName: source.attachment.name }),
    failed: (description) => copy.editFailed(instruction, description),
    done: (_uploaded, numbers) => copy.toolResult.edited(source.name, instruction, numbers),
  };
}

type Made = { ok: true; numbers: readonly number[]; uploaded: number } | { ok: false; answer: string };

async function makeImages<T>(job: ToolImages<T>, context: ToolContext, deps: ChatDeps): Promise<ToolResult> {
  const { toolJob } = deps;
  // A run before made this call's result already: it is not drawn again.
  if (toolJob?.postedBefore() !== undefined) {
    deps.logger.info({ tool: job.name, call: context.call }, 'tool result posted by a run before: not run again');
    return { content: copy.toolResult.postedBefore, isError: false };
  }
  const refusal = await toolJob?.reserveImages(context.call, job.count);
  if (refusal !== undefined) {
    deps.logger.info({ tool: job.name, call: context.call }, 'tool call refused by a quota');
    context.tell(refusal);
    return failure(copy.toolResult.refused(refusal));
  }
  let generated = 0;
  context.reply.activity(job.activity);
  // The reply is on the platform before the tool's result, so the thread reads in order.
  await context.reply.posted();
  try {
    const made = await runModelCall(
      deps,
      { lane: 'image', userId: context.userId, signal: context.signal },
      async (signal): Promise<Made> => {
        const input = await job.input(signal);
        if (!input.ok) return input;
        const images = await job.generate(input.value, signal);
        generated = images.length;
        const { lineage, comment } = await job.lineage();
        toolJob?.nextResult(lineage);
        const numbers: number[] = [];
        const counted: ResultText = {
          text: comment.text,
          numbered: (given) => {
            numbers.push(...given);
            return comment.numbered?.(given) ?? comment.text;
          },
        };
        const uploaded = await deliverImages(deps, context.target, images, job.stem, counted).finally(() => {
          for (const image of images) releaseBytes(image.bytes);
        });
        return uploaded.ok ? { ok: true, numbers, uploaded: uploaded.result.uploaded } : uploaded;
      },
    );
    if (!made.ok || made.uploaded === 0) {
      const answer = made.ok ? copy.uploadFailed : made.answer;
      context.tell(answer);
      return failure(copy.toolResult.refused(answer));
    }
    return { content: job.done(made.uploaded, made.numbers), isError: false };
  } catch (error) {
    if (stoppedEarly(error, context.signal) !== undefined) throw error;
    if (error instanceof JobRejectedError && error.reason === 'shutting_down') throw error;
    const answer =
      error instanceof JobRejectedError && error.reason !== 'shutting_down'
        ? copy.busy(error.reason, error.retryAfterSeconds)
        : job.failed(describeError(error));
    if (isExpectedFailure(error) || error instanceof JobRejectedError)
      deps.logger.warn({ tool: job.name, reason: String(error) }, 'tool call failed');
    else deps.logger.error({ err: error, tool: job.name }, 'tool call failed');
    context.tell(answer);
    return failure(copy.toolResult.refused(answer));
  } finally {
    context.reply.activity(undefined);
    if (generated < job.count) {
      await toolJob
        ?.releaseImages(context.call, job.count - generated)
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not give back reserved images'));
    }
  }
}
