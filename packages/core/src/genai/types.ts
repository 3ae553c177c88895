/**
 * Wire types of the two operations, as we send them and as we read them back
 * after schema parsing. Field names follow the service exactly: generate-content
 * is camelCase, messages is snake_case.
 */
import type { RawText } from './raw-text.js';

export const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

// ---- generate-content request -------------------------------------------------

export interface InlineData {
  mimeType: string;
  /** Base64, without a data-URL prefix. */
  data: string;
}

export type Part = { text: string } | { inlineData: InlineData };

export interface Content {
  role?: 'user' | 'model';
  parts: Part[];
}

export interface SafetySetting {
  category: string;
  threshold: string;
}

export interface GenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  responseMimeType?: string;
  responseModalities?: Array<'TEXT' | 'IMAGE'>;
  imageConfig?: { aspectRatio?: AspectRatio };
  /** Picks among the pictures one prompt can give; unset, the service picks at random. */
  seed?: number;
}

export interface GenerateContentRequest {
  contents: Content[];
  systemInstruction?: { parts: Array<{ text: string }> };
  generationConfig?: GenerationConfig;
  safetySettings?: SafetySetting[];
}

// ---- generate-content response (parsed) --------------------------------------

export interface ResponsePart {
  text?: string | null | undefined;
  /** `data` is Base64: a string, or the answer's own bytes for an image the client decodes itself. */
  inlineData?: { mimeType: string; data: string | RawText } | null | undefined;
  /** The model's interim work (thinking text, draft images): never a result. */
  thought?: boolean | undefined;
}

/** Every field may be missing: real answers carry `{}` entries among the ratings. */
export interface ResponseSafetyRating {
  category?: string | undefined;
  probability?: string | undefined;
  blocked?: boolean | undefined;
}

export interface ResponseCandidate {
  index?: number | undefined;
  content?: { role?: string | undefined; parts?: ResponsePart[] | null | undefined } | undefined;
  finishReason?: string | undefined;
  finishMessage?: string | undefined;
  safetyRatings?: ResponseSafetyRating[] | undefined;
}

export interface GenerateContentResponse {
  candidates?: ResponseCandidate[] | null | undefined;
  promptFeedback?:
    | {
        blockReason?: string | undefined;
        blockReasonMessage?: string | undefined;
        safetyRatings?: ResponseSafetyRating[] | undefined;
      }
    | undefined;
  usageMetadata?: Record<string, unknown> | undefined;
  modelVersion?: string | undefined;
  responseId?: string | undefined;
}

/** An image decoded from a response, named by its real type. */
export interface GeneratedImage {
  mimeType: string;
  /** File extension without the dot (`png`, `jpg`, `webp`, ...), from the MIME type. */
  extension: string;
  bytes: Uint8Array;
  /** Set when the bytes' magic number disagrees with the declared MIME type. */
  detectedMimeType?: string | undefined;
}

/** An image we send: raw bytes plus their (verified) MIME type. */
export interface InputImage {
  mimeType: string;
  bytes: Uint8Array;
}

// ---- messages request ------------------------------------------------------------

export type MessageContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | MessageContentBlock[];
}

export interface MessagesRequest {
  model: string;
  messages: MessageParam[];
  max_tokens: number;
  system?: string;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  metadata?: { user_id?: string };
}

// ---- messages stream events (parsed) ---------------------------------------------

/** Token counts as the service reports them; a count it sent as null is left out. */
export interface Usage {
  input_tokens?: number | undefined;
  output_tokens?: number | undefined;
  [key: string]: unknown;
}

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | (string & {});

/** `message_start`'s message: the fields we read (gateways may leave out usage, which then comes later). */
export interface StreamedMessage {
  id: string;
  model: string;
  stop_reason: StopReason | null;
  usage?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

export type MessageStreamEvent =
  | { type: 'message_start'; message: StreamedMessage }
  | {
      type: 'content_block_start';
      index?: number | undefined;
      content_block: { type: string; text?: string | undefined; [key: string]: unknown };
    }
  | {
      type: 'content_block_delta';
      index?: number | undefined;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string }
        | { type: string; [key: string]: unknown };
    }
  | { type: 'content_block_stop'; index?: number | undefined }
  | {
      type: 'message_delta';
      delta: {
        stop_reason: StopReason | null;
        /** Why a refusal stopped (`{type, category, explanation}`), when the service says. */
        stop_details?: { explanation?: string | undefined; [key: string]: unknown } | undefined;
      };
      usage?: Record<string, unknown> | undefined;
    }
  | { type: 'message_stop' }
  | { type: 'ping' };

/** What a finished stream adds up to. */
export interface FinalMessage {
  id: string;
  model: string;
  text: string;
  stopReason: StopReason | null;
  usage: Usage;
}
