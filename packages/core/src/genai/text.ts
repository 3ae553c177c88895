import type { GenerateContentResponse } from './types.js';

/** The reply: the text parts of the first candidate that has any (thoughts left out), and how it finished. */
export function readReply(response: GenerateContentResponse): {
  text: string;
  finishReason: string | undefined;
  finishMessage: string | undefined;
} {
  for (const candidate of response.candidates ?? []) {
    const texts = (candidate.content?.parts ?? []).flatMap((part) =>
      part.thought !== true && typeof part.text === 'string' ? [part.text] : [],
    );
    if (texts.length > 0) {
      return { text: texts.join(''), finishReason: candidate.finishReason, finishMessage: candidate.finishMessage };
    }
  }
  return { text: '', finishReason: undefined, finishMessage: undefined };
}

/** The reply text: the text parts of the first candidate that has any, thoughts left out. */
export function extractText(response: GenerateContentResponse): string {
  return readReply(response).text;
}
