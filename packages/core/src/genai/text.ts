import type { GenerateContentResponse } from './types.js';

/** The reply text: the text parts of the first candidate that has any, thoughts left out. */
export function extractText(response: GenerateContentResponse): string {
  for (const candidate of response.candidates ?? []) {
    const texts = (candidate.content?.parts ?? [])
      .filter((part) => part.thought !== true && typeof part.text === 'string')
      .map((part) => part.text ?? '');
    if (texts.length > 0) return texts.join('');
  }
  return '';
}
