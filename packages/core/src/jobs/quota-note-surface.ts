import type { ChatSurface } from '../surface/surface.js';
import { withOverrides } from './surface-overrides.js';

/**
 * A job's surface whose first message (an /imagine's progress message) also
 * says what is left of the user's daily quotas, in every text it shows, when
 * it fits. It deletes nothing: a progress message giving way to its result
 * keeps the note, as a short line pointing at the result. Everything else
 * is the inner surface's own.
 */
export function withQuotaNote(inner: ChatSurface, note: string): ChatSurface {
  let noted: string | undefined;
  const fit = (text: string): string => {
    const withNote = `${text}\n\n${note}`;
    return withNote.length <= inner.limits.maxMessageChars ? withNote : text;
  };
  return withOverrides(inner, {
    post: async (target, text) => {
      if (noted !== undefined) return inner.post(target, text);
      const ref = await inner.post(target, fit(text));
      noted = ref.messageId;
      return ref;
    },
    edit: (message, text) => inner.edit(message, message.messageId === noted ? fit(text) : text),
    delete: undefined,
  });
}
