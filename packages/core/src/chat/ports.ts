import type { AspectRatio, GeneratedImage, InputImage, MessagesRequest, StopReason } from '../genai/types.js';

/** What the use cases call on the service; GenAiClient satisfies both structurally. */
export interface ImageModel {
  generateImages(
    model: string,
    input: { prompt: string; aspectRatio?: AspectRatio; image?: InputImage },
    options?: { signal?: AbortSignal },
  ): Promise<GeneratedImage[]>;
}

export interface ChatModel {
  streamMessage(
    request: MessagesRequest,
    options?: { signal?: AbortSignal },
  ): { textDeltas(): AsyncIterable<string>; finalMessage(): Promise<{ stopReason: StopReason | null }> };
}

/** The slice of pino the chat code logs through. */
export interface ChatLogger {
  debug(details: object, message?: string): void;
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}
