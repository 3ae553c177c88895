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

/** The image types the messages operation accepts. */
export const MESSAGE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type MessageImageType = (typeof MESSAGE_IMAGE_TYPES)[number];

export interface TextBlockParam {
  type: 'text';
  text: string;
}

export interface ImageBlockParam {
  type: 'image';
  /** Base64 without a data-URL prefix, of an image whose bytes really are `media_type`. */
  source: { type: 'base64'; media_type: MessageImageType; data: string };
}

export interface DocumentBlockParam {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string };
  /** The file's name, shown to the model with the document. */
  title?: string;
}

export interface ToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<TextBlockParam | ImageBlockParam>;
  /** The call was refused or failed; `content` says why. */
  is_error?: boolean;
}

export type MessageContentBlock =
  | TextBlockParam
  | ImageBlockParam
  | DocumentBlockParam
  | ToolUseBlockParam
  | ToolResultBlockParam;

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | MessageContentBlock[];
}

/** A tool the model may call; `input_schema` is a JSON Schema of an object. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: {
    type: 'object';
    properties?: Record<string, unknown>;
    required?: string[];
    [key: string]: unknown;
  };
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
  tools?: ToolDefinition[];
  /** An opaque per-user identifier (never the platform's own ID). */
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
      /** A `tool_use` block always has its `id` and `name`. */
      content_block: {
        type: string;
        text?: string | undefined;
        id?: string | undefined;
        name?: string | undefined;
        [key: string]: unknown;
      };
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

/**
 * A tool call the model made. Its input arrives as JSON in pieces; `invalid`
 * when the pieces do not add up to a JSON object, so the caller can answer
 * with an error `tool_result` instead of failing the reply.
 */
export type ToolUse =
  | { kind: 'call'; id: string; name: string; input: Record<string, unknown> }
  | { kind: 'invalid'; id: string; name: string; rawInput: string; problem: string };

/** What a finished stream adds up to. */
export interface FinalMessage {
  id: string;
  model: string;
  /** The reply's text, every text block joined. */
  text: string;
  stopReason: StopReason | null;
  usage: Usage;
  /** The tool calls, in the order of their blocks. */
  toolUses: ToolUse[];
  /**
   * The reply as the assistant turn of a follow-up request (text and tool_use
   * blocks in order; thinking is left out, an invalid tool input sent as `{}`).
   */
  content: Array<TextBlockParam | ToolUseBlockParam>;
}
