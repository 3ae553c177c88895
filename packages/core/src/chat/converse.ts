import { describeError, isExpectedFailure } from '../genai/describe-error.js';
import { NoOutputError, SafetyStopError } from '../genai/errors.js';
import { JobRejectedError } from '../scheduling/job-rejected-error.js';
import { stoppedEarly } from '../scheduling/stopped-early.js';
import { buildConversation, CHARS_PER_TOKEN } from './conversation.js';
import { conversationFiles } from './conversation-files.js';
import type { ToolResultBlockParam } from '../genai/types.js';
import { IMAGE_TOOLS } from './tools/definitions.js';
import { runTool } from './tools/run-tool.js';
import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from './deps.js';
import type { ReplyWriter } from '../rendering/reply-pump.js';
import { createReplyWriter } from './reply-writer.js';
import { runModelCall } from './run-model-call.js';
import { systemPromptFor } from './system-prompt.js';
import { opaqueUserId } from './user-hash.js';
import { tellPrivatelyUnlessShown } from './status-message.js';
import type { ChatTarget, ThreadMessage } from '../surface/surface.js';
import { readThreadOrNothing } from './thread-history.js';
import { turnAway } from './turn-away.js';

export const DEFAULT_MAX_TOKENS = 4_096;
/** Tool rounds one message may take: a model that keeps calling tools is stopped there. */
export const MAX_TOOL_ROUNDS = 3;
export const DEFAULT_MAX_REPLY_CHARS = 40_000;

/**
 * How far past `max_tokens` a reply may run, by our rough count, before it is
 * cut: an honest service stops at the budget itself, and the count (a few
 * characters a token) is only an estimate, so the margin is wide; it still
 * bounds a service that ignores the budget altogether.
 */
const MAX_TOKENS_MARGIN = 2;

/** Characters a reply may have: the configured cap, and the requested max_tokens enforced locally. */
function replyLimit(maxReplyChars: number, maxTokens: number): number {
  return Math.min(maxReplyChars, maxTokens * MAX_TOKENS_MARGIN * CHARS_PER_TOKEN);
}

/** The first `count` characters of `text`, never ending between the halves of a surrogate pair. */
function head(text: string, count: number): string {
  const code = text.charCodeAt(count - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? count - 1 : count);
}

export interface ConverseInput {
  /** The thread the reply goes to (the mention itself when it starts none). */
  target: ChatTarget;
  /** The mention: its author, its text with mention markup stripped. */
  trigger: ThreadMessage;
  /** The thread's messages when the caller has read them already; read here otherwise. */
  history?: readonly ThreadMessage[] | undefined;
  /** The message the mention replies to (Discord replies): its images are what "this" points at. */
  referenced?: ThreadMessage | undefined;
  /** The platform user asking; with `deps.scheduler`, the stream waits its turn under their share. */
  userId?: string | undefined;
}

async function close(deps: ChatDeps, writer: ReplyWriter, failure: string | undefined): Promise<boolean> {
  try {
    await (failure === undefined ? writer.finish() : writer.fail(failure));
    return true;
  } catch (error) {
    deps.logger.error({ err: error }, 'could not deliver the reply');
    return false;
  }
}

/**
 * A refusal is one short answer: in the reply when one is on screen already,
 * else a message of its own (told privately first when the channel is busy).
 */
async function refuse(
  deps: ChatDeps,
  input: ConverseInput,
  opened: ReplyWriter | undefined,
  answer: string,
): Promise<void> {
  const { target } = input;
  if (opened !== undefined) {
    await close(deps, opened, answer);
    return;
  }
  const answered = turnAway(deps, target, input.trigger, answer, input.userId);
  tellPrivatelyUnlessShown(deps, target, input.userId, () => answer, answered);
  try {
    await answered;
  } catch (error) {
    deps.logger.error({ err: error }, 'could not say the conversation was refused');
  }
}

/**
 * A mention answered in its thread: the thread becomes the conversation, the
 * reply streams through the writer (the platform's own streaming, or edits in
 * place), showing its place in line while it waits, and a failure ends in a
 * short human line; so do a scheduler refusal (when to try again), a deleted
 * trigger and a restart (what was asked, and what next), which also stop the
 * writer at once, and a refusal for safety (after some text: that text, and a
 * note that it stopped). A reply is bounded: past `maxReplyChars`, or well past
 * the requested `max_tokens` by a rough count, the stream is dropped and a
 * short note ends the reply. Never rejects.
 */
export async function converse(input: ConverseInput, deps: ChatDeps, signal?: AbortSignal): Promise<ChatOutcome> {
  const { config } = deps;
  const asked = input.trigger.text;
  let opened: ReplyWriter | undefined;
  // The reply (and its placeholder) appears once the call is admitted or waits in line, never for a refusal.
  const writer = (): ReplyWriter =>
    (opened ??= createReplyWriter(deps, input.target, { recipientUserId: input.trigger.author.id }, signal, {
      stopped: (stop) => (stop === 'cancelled' ? copy.cancelled : copy.interruptedByRestart(asked)),
    }));
  const maxTokens = config.maxTokens ?? DEFAULT_MAX_TOKENS;
  const limit = replyLimit(config.maxReplyChars ?? DEFAULT_MAX_REPLY_CHARS, maxTokens);

  let hadText = false;
  let length = 0;
  let cut = false;
  /** Tool calls run so far, numbering their recorded steps; a reply with a tool's result says something even without text. */
  let calls = 0;
  let toolRan = false;
  /** Notes for the person that end the reply (files the model could not read, tool rounds used up). */
  const notes: string[] = [];
  // Where the request stands, told privately when its reply is slow to show in a busy channel.
  let place: number | 'running' | undefined;
  const tellWhereItStands = (reply: ReplyWriter): void => {
    if (place === undefined) {
      const now = (): string =>
        place === 'running' || place === undefined ? copy.replyOnItsWay : copy.chatQueued(place);
      tellPrivatelyUnlessShown(deps, input.target, input.userId, now, reply.shown);
    }
  };
  try {
    const scheduling = {
      lane: 'stream',
      userId: input.userId,
      signal,
      onQueued: (position: number) => {
        const reply = writer();
        tellWhereItStands(reply);
        place = position;
        reply.queued(position);
      },
    } as const;
    await runModelCall(deps, scheduling, async (jobSignal) => {
      const reply = writer();
      tellWhereItStands(reply);
      place = 'running';
      reply.started();
      const history = input.history ?? (await readThreadOrNothing(deps, input.target, signal));
      const files = await conversationFiles(
        deps,
        { history, trigger: input.trigger, referenced: input.referenced },
        jobSignal,
      );
      notes.push(...files.notes);
      const messages = buildConversation(history, input.trigger, {
        ...(config.historyTokenBudget === undefined ? {} : { tokenBudget: config.historyTokenBudget }),
        attached: files.blocks,
      });
      const tools = config.tools !== false;
      const request = {
        model: config.chatModel,
        max_tokens: maxTokens,
        system: systemPromptFor({
          configured: config.system,
          platform: deps.surface.platform,
          now: deps.now?.() ?? new Date(),
          tools,
        }),
        metadata: { user_id: opaqueUserId(deps.surface.platform, input.trigger.author.id, config.userIdKey) },
        ...(tools ? { tools: [...IMAGE_TOOLS] } : {}),
      };
      for (let round = 0; ; round += 1) {
        const stream = deps.chat.streamMessage(
          { ...request, messages },
          jobSignal === undefined ? {} : { signal: jobSignal },
        );
        // Each round's words are a paragraph of their own after what the rounds before said.
        let separator = length > 0 ? '\n\n' : '';
        for await (const delta of stream.textDeltas()) {
          hadText = true;
          const text = separator + delta;
          separator = '';
          if (length + text.length > limit) {
            // Leaving the loop ends the stream and releases its connection: nothing more is read.
            reply.append(head(text, limit - length));
            cut = true;
            break;
          }
          length += text.length;
          reply.append(text);
        }
        if (cut) return;
        const final = await stream.finalMessage();
        if (!tools || final.stopReason !== 'tool_use' || final.toolUses.length === 0) return;
        if (round === MAX_TOOL_ROUNDS) {
          deps.logger.warn({ rounds: round }, 'tool calls stopped: too many rounds for one message');
          notes.push(copy.toolRoundsUsed(MAX_TOOL_ROUNDS));
          return;
        }
        const results: ToolResultBlockParam[] = [];
        // Several calls in one answer run in order: an edit may follow the drawing it edits.
        for (const use of final.toolUses) {
          const context = {
            target: input.target,
            userId: input.userId,
            images: files.images,
            reply,
            signal: jobSignal,
            // genbot's own words (a refusal) are a paragraph of the reply, counted as its text.
            tell: (answer: string): void => {
              const text = `${length > 0 ? '\n\n' : ''}${answer}`;
              length += text.length;
              reply.append(text);
            },
          };
          const result = await runTool(use, { ...context, call: calls }, deps);
          calls += 1;
          toolRan = true;
          results.push({
            type: 'tool_result',
            tool_use_id: use.id,
            content: result.content,
            ...(result.isError ? { is_error: true } : {}),
          });
        }
        messages.push({ role: 'assistant', content: final.content }, { role: 'user', content: results });
      }
    });
  } catch (error) {
    const stopped = stoppedEarly(error, signal);
    if (stopped === 'handedOver') {
      // The worker that took the job over answers; the writer, stopped by the signal, sends nothing more.
      deps.logger.info({ reason: String(signal?.reason), hadText }, 'conversation handed to another worker');
      if (opened !== undefined) await close(deps, opened, undefined);
      return 'failed';
    }
    if (stopped !== undefined) {
      deps.logger.info(
        { reason: String(signal?.aborted === true ? signal.reason : error), hadText },
        `conversation ${stopped === 'cancelled' ? 'cancelled' : 'stopped by a restart'}`,
      );
      const note = stopped === 'cancelled' ? copy.cancelled : copy.interruptedByRestart(asked);
      // Turned away by a closing line: one short answer, like any refusal.
      if (error instanceof JobRejectedError) {
        await refuse(deps, input, opened, note);
        return 'rejected';
      }
      await close(deps, writer(), note);
      return 'failed';
    }
    if (error instanceof JobRejectedError && error.reason !== 'shutting_down') {
      deps.logger.info(
        { reason: error.reason, retryAfterSeconds: error.retryAfterSeconds },
        'conversation refused by the scheduler',
      );
      await refuse(deps, input, opened, copy.busy(error.reason, error.retryAfterSeconds));
      return 'rejected';
    }
    if (error instanceof SafetyStopError || (error instanceof NoOutputError && error.safetyBlocked)) {
      deps.logger.info({ reason: error.message, hadText }, 'reply refused for safety');
      await close(deps, writer(), hadText ? copy.replySafetyStop : copy.replyRefused);
      return 'failed';
    }
    if (isExpectedFailure(error)) deps.logger.warn({ reason: error.message, hadText }, 'reply refused');
    else deps.logger.error({ err: error, hadText }, 'conversation stream failed');
    await close(deps, writer(), copy.replyFailed(describeError(error), hadText));
    return 'failed';
  }
  if (cut) {
    deps.logger.warn({ limit, maxTokens }, 'reply cut at its length limit');
    return (await close(deps, writer(), copy.replyTooLong)) ? 'done' : 'failed';
  }
  if (notes.length > 0) writer().append(`${length > 0 ? '\n\n' : ''}${notes.join('\n')}`);
  if (!hadText && !toolRan) {
    await close(deps, writer(), copy.noReplyText);
    return 'failed';
  }
  return (await close(deps, writer(), undefined)) ? 'done' : 'failed';
}
