import type { ErrorDescription } from '../genai/describe-error.js';
import type { JobRejectionReason } from '../jobs/job-rejected-error.js';

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

/** A wait in words: `about 20 seconds`, `about a minute`, `about 3 minutes`. */
function about(seconds: number): string {
  if (seconds < 60) return `about ${plural(Math.max(1, Math.round(seconds)), 'second')}`;
  const minutes = Math.round(seconds / 60);
  return minutes === 1 ? 'about a minute' : `about ${minutes} minutes`;
}

function placeInLine(position: number): string {
  return position === 1 ? 'next in line' : `#${position} in line`;
}

export const copy = {
  thinking: '_Thinking…_',
  /** The work stopped for shutdown (or a caller's abort other than a deleted trigger). */
  stopped: '_Stopped._',
  /**
   * The trigger message was deleted and the work stopped. The progress or
   * reply message keeps this note instead of disappearing: the thread still
   * says what became of the request, and surfaces need no delete.
   */
  cancelled: '_Cancelled._',

  /** The scheduler turned the request away; nothing was sent to the model. */
  busy: (reason: JobRejectionReason, retryAfterSeconds: number): string => {
    const when = `Try again in ${about(retryAfterSeconds)}.`;
    switch (reason) {
      case 'user_limit':
        return `⏳ You already have requests on the way. ${when}`;
      case 'queue_full':
        return `⏳ I'm very busy right now. ${when}`;
      case 'shutting_down':
        return `I'm restarting. ${when}`;
    }
  },
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
  imagineQueued: (prompt: string, position: number): string => `⏳ ${quote(prompt)} is ${placeInLine(position)}.`,
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
  editQueued: (instruction: string, position: number): string =>
    `⏳ Your edit ${quote(instruction)} is ${placeInLine(position)}.`,
  editDone: (instruction: string, result: { uploaded: number; tooLarge: number }): string =>
    `🖌️ Done: ${plural(result.uploaded, 'edited image')} for ${quote(instruction)}.${tooLargeNote(result.tooLarge)}`,
  editFailed: (instruction: string, description: ErrorDescription): string =>
    `⚠️ Couldn't edit the image for ${quote(instruction)}: ${withRetryHint(description)}`,
  editComment: (instruction: string): string => `🖌️ ${quote(instruction, 1000)}`,

  tooLargeToUpload: (count: number): string =>
    `⚠️ ${plural(count, 'image')} ${count === 1 ? 'was' : 'were'} too large to upload here.`,
  uploadFailed: "⚠️ The images were made but couldn't be uploaded here. Trying again may help.",
};
