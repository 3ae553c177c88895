import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readDirectives } from './directives.js';
import { anthropicErrorBody, anthropicFaultError, newRequestId } from './errors.js';
import type { AnthropicErrorType } from './errors.js';
import type { EmulatorContext, Exchange } from './exchange.js';
import { applyConnectionFault } from './faults.js';
import type { Fault } from './faults.js';
import { pause, sendEndlessJson, sendHugeErrorPage, sendJson, sendTruncatedJson } from './http-io.js';
import {
  blocksOf,
  checkDocument,
  checkImage,
  type Content,
  ContentBlock,
  describeSeen,
  isBlock,
  type SeenDocument,
  type SeenImage,
  ToolDefinition,
} from './message-content.js';
import { SseWriter } from './sse.js';
import { estimateTokens, replyText, splitIntoDeltas } from './text.js';
import { closingWords, decideToolCall, jsonPieces, type ToolCall } from './tool-calls.js';
import { checkCredentials } from './wire-checks.js';

const ANTHROPIC_VERSION = '2023-06-01';
const MIN_DELTAS = 3;
const MAX_DELTAS = 40;
const CHARS_PER_DELTA = 50;
/** Faults that act mid-stream fire after this many text deltas. */
const DELTAS_BEFORE_FAULT = 2;
/** Pings of `[fault:only-pings]` come at least this far apart. */
const MIN_PING_INTERVAL_MS = 10;
/** What a thinking model sends before its reply (in a block the client must skip). */
const THINKING = ['Reading the question. ', 'Planning a short answer.'];

const MessagesRequest = z.looseObject({
  model: z.string().min(1),
  messages: z
    .array(
      z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(ContentBlock)]) }),
    )
    .min(1),
  max_tokens: z.number().int().min(1),
  system: z.union([z.string(), z.array(ContentBlock)]).optional(),
  tools: z.array(ToolDefinition).optional(),
  metadata: z.looseObject({ user_id: z.string().max(256).optional() }).optional(),
  stream: z.boolean().optional(),
});
type MessagesRequest = z.infer<typeof MessagesRequest>;

function contentText(content: Content | undefined): string {
  return blocksOf(content)
    .flatMap((block) => (isBlock(block, 'text') ? [block.text] : []))
    .join('\n');
}

/**
 * The real service's rule for tool turns: every tool_use of an assistant turn
 * is answered by a tool_result in the user turn right after it, and a
 * tool_result answers a tool_use of the turn right before. The problem in the
 * service's words, or undefined.
 */
function toolTurnProblem(messages: MessagesRequest['messages']): string | undefined {
  for (const [index, message] of messages.entries()) {
    const results = blocksOf(message.content).flatMap((block) =>
      isBlock(block, 'tool_result') ? [block.tool_use_id] : [],
    );
    const previous = index === 0 ? [] : blocksOf(messages[index - 1]?.content);
    const uses = new Set(previous.flatMap((block) => (isBlock(block, 'tool_use') ? [block.id] : [])));
    const stray = results.filter((id) => !uses.has(id) || messages[index - 1]?.role !== 'assistant');
    if (stray.length > 0) {
      return `messages.${index}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    if (message.role !== 'assistant') continue;
    const own = blocksOf(message.content).flatMap((block) => (isBlock(block, 'tool_use') ? [block.id] : []));
    const next = blocksOf(messages[index + 1]?.content);
    const answered = new Set(next.flatMap((block) => (isBlock(block, 'tool_result') ? [block.tool_use_id] : [])));
    const open = own.filter((id) => !answered.has(id));
    // The last turn may be the assistant's own, to be continued: its calls are not answered yet.
    if (open.length > 0 && index + 1 < messages.length) {
      return `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${open.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  return undefined;
}

interface Seen {
  images: SeenImage[];
  documents: SeenDocument[];
}

/** Every image and document of the conversation, checked as the service checks them; the first problem fails. */
async function seeWhatWasShown(messages: MessagesRequest['messages']): Promise<{ problem: string } | Seen> {
  const seen: Seen = { images: [], documents: [] };
  for (const [index, message] of messages.entries()) {
    for (const [at, block] of blocksOf(message.content).entries()) {
      const where = `messages.${index}.content.${at}`;
      const nested = isBlock(block, 'tool_result') && Array.isArray(block.content) ? block.content : [];
      for (const [inner, item] of [block, ...nested].entries()) {
        const path = inner === 0 ? where : `${where}.content.${inner - 1}`;
        if (isBlock(item, 'image')) {
          const checked = await checkImage(item, path);
          if ('problem' in checked) return checked;
          seen.images.push(checked.image);
        } else if (isBlock(item, 'document')) {
          const checked = checkDocument(item, path);
          if ('problem' in checked) return checked;
          seen.documents.push(checked.document);
        }
      }
    }
  }
  return seen;
}

type StopReason = 'end_turn' | 'max_tokens' | 'refusal' | 'tool_use';

/** Why a refusal stopped, as the service explains it. */
const REFUSAL_DETAILS = { type: 'refusal', category: null, explanation: 'This request was refused by the emulator.' };

interface Reply {
  id: string;
  model: string;
  text: string;
  stopReason: StopReason;
  inputTokens: number;
  /** A tool the model calls after its text: the reply then stops with `tool_use`. */
  toolCall?: ToolCall | undefined;
}

/** A tool call's input as a whole message carries it (a broken JSON of a forced call reads as `{}`). */
function parsedInput(json: string): unknown {
  try {
    const input: unknown = JSON.parse(json);
    return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
  } catch {
    return {};
  }
}

function messageJson(reply: Reply) {
  return {
    id: reply.id,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [
      ...(reply.text === '' ? [] : [{ type: 'text', text: reply.text }]),
      ...(reply.toolCall === undefined
        ? []
        : [
            {
              type: 'tool_use',
              id: reply.toolCall.id,
              name: reply.toolCall.name,
              input: parsedInput(reply.toolCall.json),
            },
          ]),
    ],
    stop_reason: reply.stopReason,
    stop_sequence: null,
    usage: { input_tokens: reply.inputTokens, output_tokens: outputTokens(reply) },
  };
}

function outputTokens(reply: Reply): number {
  return (
    (reply.text === '' ? 0 : estimateTokens(reply.text)) +
    (reply.toolCall === undefined ? 0 : estimateTokens(reply.toolCall.json))
  );
}

interface StreamShape {
  fault: Fault | undefined;
  delayMs: number;
  /** `[usage:late]`: message_start without usage, the counts only at the end, as some gateways send. */
  lateUsage: boolean;
}

/**
 * The event sequence Anthropic sends: a thinking block, then one text block
 * with a ping between deltas; usage counts the service leaves null come as
 * null, and the last event has no blank line after it.
 */
async function stream(exchange: Exchange, sse: SseWriter, reply: Reply, shape: StreamShape): Promise<void> {
  const { fault, delayMs } = shape;
  const { usage: _usage, ...message } = {
    ...messageJson({ ...reply, text: '', toolCall: undefined }),
    stop_reason: null,
  };
  sse.send('message_start', {
    type: 'message_start',
    message: shape.lateUsage
      ? message
      : {
          ...message,
          usage: {
            input_tokens: reply.inputTokens,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 1,
          },
        },
  });
  sse.send('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'thinking', thinking: '', signature: '' },
  });
  for (const thinking of THINKING) {
    sse.send('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking },
    });
  }
  sse.send('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'signature_delta', signature: randomBytes(24).toString('base64') },
  });
  sse.send('content_block_stop', { type: 'content_block_stop', index: 0 });
  if (fault?.kind === 'only-pings') {
    while (await pause(Math.max(delayMs, MIN_PING_INTERVAL_MS), exchange.signal)) sse.send('ping', { type: 'ping' });
    return;
  }
  if (reply.toolCall !== undefined && reply.text === '') return streamToolCall(exchange, sse, reply, 1, shape);
  sse.send('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
  const count = Math.min(Math.max(Math.ceil(reply.text.length / CHARS_PER_DELTA), MIN_DELTAS), MAX_DELTAS);
  const stopReason = reply.stopReason;
  for (const [index, text] of splitIntoDeltas(reply.text, count).entries()) {
    if (index > 0) {
      if (!(await pause(delayMs, exchange.signal))) return;
      sse.send('ping', { type: 'ping' });
    }
    sse.send('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text } });
    if (index + 1 < DELTAS_BEFORE_FAULT) continue;
    if (fault?.kind === 'stream-error') {
      sse.last('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      return;
    }
    if (fault?.kind === 'stream-cut') return sse.cut();
    if (fault?.kind === 'endless-line') {
      const start =
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"';
      return sse.endlessLine(start, 'and on ', exchange.signal);
    }
    // The reply's stop reason is a refusal already: it stops here.
    if (fault?.kind === 'safety-stop') break;
  }
  sse.send('content_block_stop', { type: 'content_block_stop', index: 1 });
  if (reply.toolCall !== undefined) return streamToolCall(exchange, sse, reply, 2, shape);
  sendEnd(sse, reply, stopReason, shape);
}

/** A tool_use block as the service streams it: opened with an empty input, the JSON in pieces, then the stop. */
async function streamToolCall(
  exchange: Exchange,
  sse: SseWriter,
  reply: Reply,
  index: number,
  shape: StreamShape,
): Promise<void> {
  const call = reply.toolCall as ToolCall;
  sse.send('content_block_start', {
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
  });
  for (const [at, partial_json] of jsonPieces(call.json).entries()) {
    if (at > 1 && !(await pause(shape.delayMs, exchange.signal))) return;
    sse.send('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json },
    });
  }
  sse.send('content_block_stop', { type: 'content_block_stop', index });
  sendEnd(sse, reply, 'tool_use', shape);
}

function sendEnd(sse: SseWriter, reply: Reply, stopReason: StopReason, shape: StreamShape): void {
  sse.send('message_delta', {
    type: 'message_delta',
    delta: {
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details: stopReason === 'refusal' ? REFUSAL_DETAILS : null,
    },
    usage: {
      input_tokens: shape.lateUsage ? reply.inputTokens : null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      output_tokens: outputTokens(reply),
    },
  });
  sse.last('message_stop', { type: 'message_stop' });
}

export async function handleMessages(context: EmulatorContext, exchange: Exchange): Promise<void> {
  const requestId = newRequestId();
  const headers = { 'request-id': requestId };
  const fail = (status: number, type: AnthropicErrorType, message: string, extra: Record<string, string> = {}) =>
    sendJson(exchange.res, status, anthropicErrorBody(type, message, requestId), { ...headers, ...extra });

  const credentials = checkCredentials(exchange.headers, 'x-api-key', {
    apiKey: context.apiKey,
    relax: context.relaxCredentials,
  });
  if (!credentials.ok) {
    return fail(
      401,
      'authentication_error',
      credentials.reason === 'wrong-key' ? 'invalid x-api-key' : 'x-api-key header is required',
    );
  }
  const version = exchange.headers['anthropic-version'];
  if (version !== ANTHROPIC_VERSION) {
    return fail(
      400,
      'invalid_request_error',
      version === undefined
        ? 'anthropic-version: header is required'
        : `anthropic-version: "${version}" is not a valid version`,
    );
  }
  if (!exchange.json.ok)
    return fail(400, 'invalid_request_error', `There was an issue with your request body: ${exchange.json.error}`);
  const parsed = MessagesRequest.safeParse(exchange.json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(
      400,
      'invalid_request_error',
      `${issue?.path.map(String).join('.') ?? 'body'}: ${issue?.message ?? 'invalid request'}`,
    );
  }
  const request = parsed.data;
  const turnProblem = toolTurnProblem(request.messages);
  if (turnProblem !== undefined) return fail(400, 'invalid_request_error', turnProblem);
  const seen = await seeWhatWasShown(request.messages);
  if ('problem' in seen) return fail(400, 'invalid_request_error', seen.problem);
  if (request.model.includes('not-found')) return fail(404, 'not_found_error', `model: ${request.model}`);

  const last = request.messages.findLastIndex((message) => message.role === 'user');
  const prompt = contentText(request.messages[last]?.content);
  const directives = readDirectives(prompt);
  const choice = context.faults.choose(
    exchange.headers['x-emulator-fault'],
    directives.fault,
    exchange.path,
    exchange.rawBody,
  );
  if (!choice.ok) return fail(400, 'invalid_request_error', choice.message);
  const fault = choice.fault;
  if (!(await applyConnectionFault(fault, exchange.req, exchange.res, exchange.signal))) return;
  if (fault?.kind === 'huge-error') {
    return sendHugeErrorPage(exchange.res, fault.megabytes * 1024 * 1024, exchange.signal);
  }
  if (fault?.kind === 'status') {
    const error = anthropicFaultError(fault.status);
    return fail(
      fault.status,
      error.type,
      error.message,
      fault.status === 429 ? { 'retry-after': String(fault.retryAfterSeconds) } : {},
    );
  }
  if (fault?.kind === 'stream-error' && request.stream !== true) return fail(500, 'api_error', 'Internal server error');

  const lastBlocks = blocksOf(request.messages[last]?.content);
  const results = lastBlocks.flatMap((block) =>
    isBlock(block, 'tool_result') ? [{ text: contentText(block.content), isError: block.is_error === true }] : [],
  );
  const userWords = request.messages
    .filter((message) => message.role === 'user')
    .map((message) => contentText(message.content))
    .findLast((words) => words !== '');
  const toolCall =
    fault?.kind === 'safety'
      ? undefined
      : decideToolCall({
          prompt,
          ask: lastBlocks.findLast((block) => isBlock(block, 'text'))?.text ?? '',
          userWords: userWords ?? '',
          afterResults: results.length > 0,
          tools: (request.tools ?? []).map((tool) => tool.name),
          hasImage: seen.images.length > 0,
          seed: exchange.rawBody,
        });
  const answer =
    results.length > 0
      ? closingWords(results)
      : toolCall !== undefined
        ? (toolCall.preface ?? '')
        : seen.images.length + seen.documents.length > 0
          ? describeSeen(seen.images, seen.documents)
          : replyText(prompt, directives.len, Math.max(0, last));
  const full = fault?.kind === 'safety' ? '' : answer;
  // A service gone wrong may run on past the budget it was given; the client must bound the reply itself.
  const text = fault?.kind === 'ignore-max-tokens' ? full : full.slice(0, request.max_tokens * 4);
  const refused = fault?.kind === 'safety' || fault?.kind === 'safety-stop';
  const conversation = [
    contentText(request.system),
    ...request.messages.map((message) => contentText(message.content)),
  ];
  const reply: Reply = {
    id: `msg_${randomBytes(12).toString('hex')}`,
    model: request.model,
    text,
    stopReason: refused
      ? 'refusal'
      : text.length < full.length
        ? 'max_tokens'
        : toolCall !== undefined && !refused
          ? 'tool_use'
          : 'end_turn',
    inputTokens: estimateTokens(conversation.join('\n')),
    toolCall: refused || text.length < full.length ? undefined : toolCall,
  };
  if (request.stream === true) {
    return stream(exchange, new SseWriter(exchange.res, headers), reply, {
      fault,
      delayMs: directives.delay ?? context.streamDelayMs,
      lateUsage: directives.usage === 'late',
    });
  }
  if (fault?.kind === 'stream-cut') return sendTruncatedJson(exchange.res, messageJson(reply), headers);
  if (fault?.kind === 'endless-line' || fault?.kind === 'only-pings') {
    const start = `{"id":"${reply.id}","type":"message","role":"assistant","content":[{"type":"text","text":"`;
    const intervalMs = Math.max(directives.delay ?? context.streamDelayMs, MIN_PING_INTERVAL_MS);
    return sendEndlessJson(exchange.res, fault.kind, start, intervalMs, exchange.signal);
  }
  if (fault?.kind === 'safety-stop') {
    return sendJson(exchange.res, 200, messageJson({ ...reply, text: text.slice(0, text.length / 2) }), headers);
  }
  sendJson(exchange.res, 200, messageJson(reply), headers);
}
