import type { ConversationImage } from '../conversation-files.js';

export type PickedImage = { ok: true; image: ConversationImage } | { ok: false; problem: 'none' | 'unknown' };

/**
 * The image an edit_image call edits: the one it names; else the one the
 * message points at (attached, replied to), the latest of those; else the
 * conversation's latest. Only images of this conversation can be named, so
 * words in a file cannot steer a tool to another channel's image.
 */
export function pickImage(images: readonly ConversationImage[], name: string | undefined): PickedImage {
  if (images.length === 0) return { ok: false, problem: 'none' };
  if (name !== undefined) {
    const wanted = name.trim().toLowerCase();
    const named = images.find((image) => image.name.toLowerCase() === wanted);
    return named === undefined ? { ok: false, problem: 'unknown' } : { ok: true, image: named };
  }
  const pointed = images.filter((image) => image.pointedAt).at(-1);
  return { ok: true, image: pointed ?? (images.at(-1) as ConversationImage) };
}
