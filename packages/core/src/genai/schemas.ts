/**
 * Schemas for everything the service sends back. Parsed once, here at the
 * edge: strictly what we use (the reply's text and images, an error's type),
 * leniently the rest. A field we only read for details may be missing, null,
 * empty or of another type (it then reads as absent), and unknown fields and
 * event kinds pass, so a newer service or a gateway does not break us.
 */
import { z } from 'zod';
import { RawText } from './raw-text.js';

/** A field we can do without: anything that does not fit reads as absent. */
function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

// Real answers carry `{}` entries among the ratings.
const SafetyRatingSchema = z.looseObject({
  category: lenient(z.string()),
  probability: lenient(z.string()),
  blocked: lenient(z.boolean()),
});

const SafetyRatingsSchema = lenient(z.array(SafetyRatingSchema.catch({})));

const ResponsePartSchema = z.looseObject({
  text: z.string().nullish(),
  // Bytes when the client kept a long one as it came (RawText).
  inlineData: z.looseObject({ mimeType: z.string(), data: z.union([z.string(), z.instanceof(RawText)]) }).nullish(),
  thought: lenient(z.boolean()),
});

const CandidateSchema = z.looseObject({
  index: lenient(z.number().int()),
  content: lenient(z.looseObject({ role: lenient(z.string()), parts: z.array(ResponsePartSchema).nullish() })),
  finishReason: lenient(z.string()),
  finishMessage: lenient(z.string()),
  safetyRatings: SafetyRatingsSchema,
});

export const GenerateContentResponseSchema = z.looseObject({
  candidates: z.array(CandidateSchema).nullish(),
  promptFeedback: lenient(
    z.looseObject({
      blockReason: lenient(z.string()),
      blockReasonMessage: lenient(z.string()),
      safetyRatings: SafetyRatingsSchema,
    }),
  ),
  usageMetadata: lenient(z.record(z.string(), z.unknown())),
  modelVersion: lenient(z.string()),
  responseId: lenient(z.string()),
});

/** `{"error":{"code","message","status","details"}}` */
export const GenerateContentErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: lenient(z.number()),
    message: lenient(z.string()),
    status: lenient(z.string()),
    details: lenient(z.array(z.looseObject({ reason: lenient(z.string()) }).catch({}))),
  }),
});

/** `{"type":"error","error":{"type","message"},"request_id"}` */
export const MessagesErrorBodySchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ type: z.string(), message: lenient(z.string()) }),
  request_id: lenient(z.string()),
});

// ---- messages stream events ---------------------------------------------------------

// Counts may be null or missing (`message_start` from some gateways has no usage at all).
const UsageSchema = lenient(z.record(z.string(), z.unknown()));

// A tool call without its id or name could not be answered: an event we cannot read.
const ContentBlockSchema = z
  .looseObject({
    type: z.string(),
    text: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
  })
  .refine((block) => block.type !== 'tool_use' || (block.id !== undefined && block.name !== undefined));

const StopReasonSchema = z.string().nullable().catch(null);

const KNOWN_DELTAS = ['text_delta', 'input_json_delta', 'thinking_delta', 'signature_delta'];

const DeltaSchema = z.union([
  z.looseObject({ type: z.literal('text_delta'), text: z.string() }),
  z.looseObject({ type: z.literal('input_json_delta'), partial_json: z.string() }),
  z.looseObject({ type: z.literal('thinking_delta'), thinking: z.string() }),
  z.looseObject({ type: z.literal('signature_delta'), signature: z.string() }),
  z.looseObject({ type: z.string().refine((type) => !KNOWN_DELTAS.includes(type)) }),
]);

export const StreamEventSchemas = {
  message_start: z.looseObject({
    type: z.literal('message_start'),
    message: z.looseObject({
      id: z.string().catch(''),
      model: z.string().catch(''),
      stop_reason: StopReasonSchema,
      usage: UsageSchema,
    }),
  }),
  content_block_start: z.looseObject({
    type: z.literal('content_block_start'),
    index: lenient(z.number().int()),
    content_block: ContentBlockSchema,
  }),
  content_block_delta: z.looseObject({
    type: z.literal('content_block_delta'),
    index: lenient(z.number().int()),
    delta: DeltaSchema,
  }),
  content_block_stop: z.looseObject({ type: z.literal('content_block_stop'), index: lenient(z.number().int()) }),
  message_delta: z.looseObject({
    type: z.literal('message_delta'),
    delta: z
      .looseObject({
        stop_reason: StopReasonSchema,
        stop_details: lenient(z.looseObject({ explanation: lenient(z.string()) })),
      })
      .catch({ stop_reason: null, stop_details: undefined }),
    usage: UsageSchema,
  }),
  message_stop: z.looseObject({ type: z.literal('message_stop') }),
  ping: z.looseObject({ type: z.literal('ping') }),
  error: z.looseObject({
    type: z.literal('error'),
    error: z.looseObject({ type: z.string(), message: lenient(z.string()) }),
  }),
} as const;

export type StreamEventType = keyof typeof StreamEventSchemas;

export function isKnownStreamEventType(type: string): type is StreamEventType {
  return Object.hasOwn(StreamEventSchemas, type);
}

export const EventTypeSchema = z.looseObject({ type: z.string() });
