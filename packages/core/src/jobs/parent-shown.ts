import type { AttachmentRef, ResultAction } from '../surface/surface.js';
import type { ImageVersion, ImageVersionStore, JobStore } from '../store/index.js';
import type { ChatJobInput } from './chat-job.js';
import { parseChatJob, UnreadableJobError } from './parse-chat-job.js';

/** Re-rolls followed back at most to the press or form that was shown the parent: chains are far shorter. */
const MAX_HOPS = 20;

export interface ParentShownDeps {
  versions: Pick<ImageVersionStore, 'get'>;
  jobs: Pick<JobStore, 'get'>;
}

/**
 * The images of the pressed version's parent as an earlier job was shown
 * them, for a press whose platform shows images only through interactions (a
 * Discord user install: `ButtonPress.shown`). Undo and a Re-roll of an edit
 * read that parent, and no message the bot may read holds it; but the job
 * that made the pressed version was pressed on the parent's result (Vary,
 * Edit), or run on its message (Edit image), and kept its images. A Re-roll
 * made it from the parent too: its own press is followed back. Empty when
 * the action reads no parent, or nothing kept it (retention, an unreadable
 * job).
 */
export async function parentShown(
  action: ResultAction,
  pressed: ImageVersion,
  deps: ParentShownDeps,
): Promise<readonly AttachmentRef[]> {
  if (action !== 'undo' && action !== 'reroll') return [];
  let made = await standsFor(pressed, deps);
  const parent = made?.parent;
  for (let hops = 0; made !== undefined && parent !== undefined && hops < MAX_HOPS; hops += 1) {
    const input = await inputOf(made.jobId, deps);
    switch (input?.kind) {
      case 'message-edit':
        return input.edit.source.attachments;
      case 'vary':
      case 'edit':
        return input.action.shown ?? [];
      case 'reroll': {
        // A sibling of the one re-rolled, from the same parent.
        const rerolled = await deps.versions.get(input.action.version);
        made = rerolled === undefined ? undefined : await standsFor(rerolled, deps);
        if (made?.parent?.jobId !== parent.jobId || made.parent.index !== parent.index) return [];
        break;
      }
      default:
        return [];
    }
  }
  return [];
}

/** A restored version (an undo's result) stands for the one it shows again. */
async function standsFor(version: ImageVersion, deps: ParentShownDeps): Promise<ImageVersion | undefined> {
  if (version.origin !== 'restored' || version.parent === undefined) return version;
  return deps.versions.get(version.parent);
}

async function inputOf(jobId: string, deps: ParentShownDeps): Promise<ChatJobInput | undefined> {
  const record = await deps.jobs.get(jobId);
  if (record === undefined) return undefined;
  try {
    return parseChatJob(record).input;
  } catch (error) {
    if (error instanceof UnreadableJobError) return undefined;
    throw error;
  }
}
