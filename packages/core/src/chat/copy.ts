import type { ErrorDescription } from '../genai/describe-error.js';

/**
 * Every sentence the bot says on its own, in standard Markdown (each surface
 * formats it). Short and human: what happened and whether trying again may
 * help; never a stack trace, an identifier or a secret.
 */

const QUOTE_CHARS = 200;

/** A user's text shown back to them, shortened and on one line. */
export function quote(text: string, max = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat}”`;
}

function withRetryHint(description: ErrorDescription): string {
  const hinted = /try again/i.test(description.summary);
  return description.retryable && !hinted ? `${description.summary} Trying again may help.` : description.summary;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function tooLargeNote(count: number): string {
  return count === 0 ? '' : ` ${plural(count, 'more')} ${count === 1 ? 'was' : 'were'} too large to upload here.`;
}

export const copy = {
  thinking: '_Thinking…_',
  stopped: '_Stopped._',
  noReplyText: 'I have no answer to that one. Try asking differently.',
  replyRefused: "I can't help with that one. Try rewording it.",

  replyFailed: (description: ErrorDescription, hadText: boolean): string =>
    hadText
      ? `⚠️ _The reply stopped early: ${withRetryHint(description)}_`
      : `⚠️ I couldn't answer: ${withRetryHint(description)}`,

  emptyPrompt: 'Tell me what to draw, for example: `/imagine a lighthouse at dusk`.',
  promptTooLong: (length: number, max: number): string =>
    `That prompt is ${length} characters long; keep it under ${max}.`,
  badAspectRatio: (given: string, allowed: readonly string[]): string =>
    `${quote(given, 20)} isn't a supported aspect ratio. Use one of: ${allowed.join(', ')}.`,

  imagining: (prompt: string): string => `🎨 Generating ${quote(prompt)}…`,
  imagineDone: (prompt: string, result: { uploaded: number; tooLarge: number }): string =>
    `🎨 Done: ${plural(result.uploaded, 'image')} for ${quote(prompt)}.${tooLargeNote(result.tooLarge)}`,
  imagineFailed: (prompt: string, description: ErrorDescription): string =>
    `⚠️ Couldn't generate ${quote(prompt)}: ${withRetryHint(description)}`,
  imageComment: (prompt: string): string => `🎨 ${quote(prompt, 1000)}`,

  emptyInstruction: 'Tell me how to change the image, for example: “make it look like a watercolor”.',
  noImageToEdit: "I couldn't find an image to edit: attach one, or mention me in reply to a message that has one.",
  notAnImage: (name: string): string =>
    `I can only edit images (PNG, JPEG, WebP, GIF or HEIC), and ${quote(name, 80)} isn't one.`,
  unsupportedImage: (name: string, reason: string): string => `I can't edit ${quote(name, 80)}: ${reason}`,
  downloadFailed: (name: string): string => `I couldn't download ${quote(name, 80)}. Trying again may help.`,
  editing: (instruction: string): string => `🖌️ Editing the image: ${quote(instruction)}…`,
  editDone: (instruction: string, result: { uploaded: number; tooLarge: number }): string =>
    `🖌️ Done: ${plural(result.uploaded, 'edited image')} for ${quote(instruction)}.${tooLargeNote(result.tooLarge)}`,
  editFailed: (instruction: string, description: ErrorDescription): string =>
    `⚠️ Couldn't edit the image for ${quote(instruction)}: ${withRetryHint(description)}`,
  editComment: (instruction: string): string => `🖌️ ${quote(instruction, 1000)}`,

  tooLargeToUpload: (count: number): string =>
    `⚠️ ${plural(count, 'image')} ${count === 1 ? 'was' : 'were'} too large to upload here.`,
  uploadFailed: "⚠️ The images were made but couldn't be uploaded here. Trying again may help.",
};
