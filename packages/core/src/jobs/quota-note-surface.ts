import type { QuotaConfig } from '../config/load-config.js';
import { copy } from '../copy/copy.js';
import type { ChatLogger } from '../surface/ports.js';
import type { ChatSurface } from '../surface/surface.js';
import type { UsageLedger } from '../store/index.js';
import type { ChatJob } from './chat-job.js';
import { closeToLimit, quotaStatus } from './daily-quota.js';
import { imagesOf } from './image-admission.js';
import { withOverrides } from './surface-overrides.js';

/** What is left of the user's daily quotas, for an /imagine, when little is; a store that cannot say shows none. */
export async function quotaNote(
  job: ChatJob,
  deps: { quota: QuotaConfig | undefined; usage: UsageLedger; logger: ChatLogger },
): Promise<string | undefined> {
  if (deps.quota === undefined || job.input.kind !== 'imagine') return undefined;
  try {
    const status = await quotaStatus(deps.usage, job, deps.quota);
    // Admission held this job's own images already: what is left is told as it was when it was asked.
    const held = imagesOf(job);
    const lines = status.lines.map((line) =>
      line.quota === 'images' ? { ...line, left: Math.min(line.limit, line.left + held) } : line,
    );
    const close = closeToLimit({ ...status, lines });
    return close.length === 0 ? undefined : copy.quotaLeft(close);
  } catch (error) {
    deps.logger.warn({ err: error, jobId: job.id }, 'could not read the quota left');
    return undefined;
  }
}

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
