/**
 * Schemas for everything the service sends back. Parsed once, here at the
 * edge; unknown fields pass through so a newer service does not break us.
 */
import { z } from 'zod';

const SafetyRatingSchema = z.looseObject({
  category: z.string(),
  probability: z.string().optional(),
  blocked: z.boolean().optional(),
});

const ResponsePartSchema = z.looseObject({
  text: z.string().optional(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
  thought: z.boolean().optional(),
});

const CandidateSchema = z.looseObject({
  index: z.number().int().optional(),
  content: z.looseObject({ role: z.string().optional(), parts: z.array(ResponsePartSchema).optional() }).optional(),
  finishReason: z.string().optional(),
  finishMessage: z.string().optional(),
  safetyRatings: z.array(SafetyRatingSchema).optional(),
});

export const GenerateContentResponseSchema = z.looseObject({
  candidates: z.array(CandidateSchema).optional(),
  promptFeedback: z
    .looseObject({
      blockReason: z.string().optional(),
      blockReasonMessage: z.string().optional(),
      safetyRatings: z.array(SafetyRatingSchema).optional(),
    })
    .optional(),
  usageMetadata: z.record(z.string(), z.unknown()).optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});

/** `{"error":{"code","message","status","details"}}` */
export const GenerateContentErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.number().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
  }),
});

/** `{"type":"error","error":{"type","message"},"request_id"}` */
export const MessagesErrorBodySchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ type: z.string(), message: z.string().optional() }),
  request_id: z.string().optional(),
});

// ---- messages stream events ---------------------------------------------------------

const UsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
});

const ContentBlockSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

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
      id: z.string(),
      model: z.string(),
      role: z.literal('assistant'),
      content: z.array(ContentBlockSchema),
      stop_reason: z.string().nullable(),
      stop_sequence: z.string().nullable().optional(),
      usage: UsageSchema,
    }),
  }),
  content_block_start: z.looseObject({
    type: z.literal('content_block_start'),
    index: z.number().int(),
    content_block: ContentBlockSchema,
  }),
  content_block_delta: z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number().int(),
    delta: DeltaSchema,
  }),
  content_block_stop: z.looseObject({ type: z.literal('content_block_stop'), index: z.number().int() }),
  message_delta: z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullable(), stop_sequence: z.string().nullable().optional() }),
    usage: UsageSchema,
  }),
  message_stop: z.looseObject({ type: z.literal('message_stop') }),
  ping: z.looseObject({ type: z.literal('ping') }),
  error: z.looseObject({
    type: z.literal('error'),
    error: z.looseObject({ type: z.string(), message: z.string().optional() }),
  }),
} as const;

export type StreamEventType = keyof typeof StreamEventSchemas;

export function isKnownStreamEventType(type: string): type is StreamEventType {
  return Object.hasOwn(StreamEventSchemas, type);
}

export const EventTypeSchema = z.looseObject({ type: z.string() });
