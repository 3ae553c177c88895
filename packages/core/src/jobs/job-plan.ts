import { copy } from '../copy/copy.js';
import type { ChatDeps, ChatOutcome } from '../chat/deps.js';
import { editImage } from '../chat/edit-image.js';
import { handleMention } from '../chat/handle-mention.js';
import { checkImagine, imagineChecked } from '../chat/imagine.js';
import { say } from '../chat/status-message.js';
import type { VersionLineage } from '../chat/version-lineage.js';
import { resolveResultAction } from '../results/resolve-action.js';
import type { ChatLogger } from '../surface/ports.js';
import type { ChatSurface, ChatTarget } from '../surface/surface.js';
import { type ImageVersionKey, type ImageVersionStore, isPosted } from '../store/index.js';
import { systemClock } from '../time/clock.js';
import type { ChatJob } from './chat-job.js';
import type { StoredCall } from './until-stored.js';

const DEFAULT_POSTED_WAIT = { timeoutMs: 60_000, pollMs: 50 };
const MAX_POSTED_POLL_MS = 1_000;

/** What a job runs, and what its images will be in the version tree (none for a job refused in its place). */
export interface JobPlan {
  lineage?: VersionLineage | undefined;
  run(deps: ChatDeps, signal: AbortSignal): Promise<ChatOutcome>;
}

export interface JobPlanDeps {
  versions: ImageVersionStore;
  stored: StoredCall;
  logger: ChatLogger;
  /** How long a press waits for the result it was pressed on to finish posting, and how often it looks. */
  postedWait?: { timeoutMs?: number; pollMs?: number } | undefined;
}

/**
 * What a job runs and what its images will be in the version tree. A
 * button's job reads the tree first; one whose record is gone is answered
 * in its place.
 */
export async function planJob(job: ChatJob, platformSurface: ChatSurface, deps: JobPlanDeps): Promise<JobPlan> {
  const { input } = job;
  const { stored, versions, logger } = deps;
  switch (input.kind) {
    case 'imagine': {
      // Checked once, here: the lineage records the aspect ratio the use case runs with.
      const result = checkImagine(input.imagine);
      if (!result.ok) return refused(input.imagine.target, result.answer);
      // None asked for: the place's `aspect_ratio`, recorded too, so a Re-roll asks the same.
      const checked = { ...result.checked, aspectRatio: result.checked.aspectRatio ?? job.settings?.aspectRatio };
      return {
        lineage: {
          origin: 'generated',
          prompt: input.imagine.prompt,
          aspectRatio: checked.aspectRatio,
          reroll: true,
          undo: false,
        },
        run: (chat, signal) => imagineChecked(checked, chat, signal),
      };
    }
    case 'mention':
      // A conversation: what its images are in the version tree, each tool call says as it makes them.
      return { run: (chat, signal) => handleMention(input.mention, chat, signal) };
    case 'message-edit': {
      const { edit } = input;
      const shown = await stored('find the version edited', () =>
        versions.byMessage(job.platform, edit.target.channelId, edit.source.id),
      );
      const parent = shown[0];
      const instruction = edit.instruction.trim();
      const lineage: VersionLineage = {
        origin: 'edited',
        parent: parent === undefined ? undefined : { jobId: parent.jobId, index: parent.index },
        prompt: instruction,
        reroll: parent !== undefined,
        undo: parent !== undefined,
      };
      // An edit of a version names the numbers of the new ones in its result.
      const presentation =
        parent === undefined
          ? {}
          : { comment: (numbers: readonly number[]) => copy.editedComment(numbers, parent.number, instruction) };
      const candidates = edit.source.attachments;
      return {
        lineage,
        run: (chat, signal) =>
          editImage({ target: edit.target, instruction, candidates, userId: edit.userId }, chat, signal, presentation),
      };
    }
    default: {
      // A press that came as its result showed: the result's own job is still recording where it is.
      if (!(await whenPosted(input.action.version, deps))) {
        logger.info({ jobId: job.id, kind: input.kind }, 'button job refused: its image never posted');
        return refused(input.action.target, copy.versionNotPosted);
      }
      // Read from the store like every other step: a database outage is waited out, not a failed press.
      const resolved = await stored('read the version pressed', () =>
        resolveResultAction(input.kind, input.action, versions, platformSurface),
      );
      if (resolved.ok) return resolved;
      logger.info({ jobId: job.id, kind: input.kind }, 'button job refused: its record is gone');
      return refused(input.action.target, resolved.answer);
    }
  }
}

function refused(target: ChatTarget, answer: string): JobPlan {
  return {
    run: async (chat) => {
      await say(chat, target, answer);
      return 'rejected';
    },
  };
}

/**
 * Waits while the version pressed is recorded but not yet posted (its
 * result showed a moment before its job recorded the message and file ids),
 * for at most `postedWait.timeoutMs`. False when it is still not posted
 * then (its upload failed after it was recorded); true otherwise, a version
 * that is gone included (resolving the press says so).
 */
async function whenPosted(key: ImageVersionKey, deps: JobPlanDeps): Promise<boolean> {
  const { timeoutMs, pollMs } = { ...DEFAULT_POSTED_WAIT, ...deps.postedWait };
  const deadline = systemClock.now() + timeoutMs;
  let pause = pollMs;
  for (;;) {
    const version = await deps.stored('read the version pressed', () => deps.versions.get(key));
    if (version === undefined || isPosted(version)) return true;
    if (systemClock.now() >= deadline) return false;
    await systemClock.sleep(Math.min(pause, Math.max(0, deadline - systemClock.now())));
    pause = Math.min(pause * 2, MAX_POSTED_POLL_MS);
  }
}
