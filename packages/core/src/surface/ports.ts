import type { MessageStream } from '../genai/message-stream.js';
import type { AspectRatio, GeneratedImage, InputImage, MessagesRequest } from '../genai/types.js';

/** What the use cases call on the service; GenAiClient satisfies both structurally. */
export interface ImageModel {
  /**
   * The images are the caller's alone: the image job frees them once uploaded
   * (`releaseBytes`). Images of one answer may share its memory: free them together.
   */
  generateImages(
    model: string,
    input: { prompt: string; aspectRatio?: AspectRatio; image?: InputImage; seed?: number },
    options?: { signal?: AbortSignal },
  ): Promise<GeneratedImage[]>;
}

export interface ChatModel {
  /**
   * The reply's text as it streams, then the whole reply (its tool calls);
   * a refusal for safety rejects (SafetyStopError after text, NoOutputError before).
   */
  streamMessage(
    request: MessagesRequest,
    options?: { signal?: AbortSignal },
  ): Pick<MessageStream, 'textDeltas' | 'finalMessage'>;
}

/** The slice of pino the chat code logs through. */
export interface ChatLogger {
  debug(details: object, message?: string): void;
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}
