import { copy } from '../copy/copy.js';
import type {
  DailyImageLimit,
  JobRecord,
  Platform,
  ReservationHolder,
  UsageLedger,
  UsageScope,
} from '../store/index.js';
import type { ChatLogger } from '../surface/ports.js';
import type { ChatJob } from './chat-job.js';
import { secondsToUtcMidnight } from './daily-quota.js';
import { parseChatJob, UnreadableJobError } from './parse-chat-job.js';

/** The daily image limits a reservation stays within; each undefined when not set. */
export interface ImageLimits {
  /** IMAGES_PER_DAY: the person's own. */
  userPerDay: number | undefined;
  /** The effective `budget_images_per_day`: the workspace's (Discord server's), all its users together. */
  workspacePerDay: number | undefined;
}

/** Why images were refused: the words for the person, and the reason for the metrics. */
export interface ImageRefusal {
  answer: string;
  reason: 'quota' | 'budget';
}

/** A reservation's outcome: taken, or refused whole. */
export type ImageReservation = { ok: true } | ({ ok: false } & ImageRefusal);

/**
 * Whose usage a budget adds up: the workspace (Discord server) of the request. A Discord DM has no
 * server: the ledger keeps its usage under the empty workspace, so this scope is all Discord DMs
 * together, which is what the operator's budget holds them to.
 */
export function budgetScope(holder: { platform: Platform; workspaceId?: string | undefined }): UsageScope {
  return { platform: holder.platform, workspaceId: holder.workspaceId };
}

/** Whose budget, in its words: a workspace of its platform, or Discord's DMs together. */
export function budgetWhere(holder: { platform: Platform; workspaceId?: string | undefined }): Platform | 'dm' {
  return holder.platform === 'discord' && holder.workspaceId === undefined ? 'dm' : holder.platform;
}

function userScope(holder: ReservationHolder): UsageScope {
  return { platform: holder.platform, workspaceId: holder.workspaceId, userId: holder.userId };
}

/** Whether any daily image limit is set: without one, nothing is read or held. */
export function anyImageLimit(limits: ImageLimits): boolean {
  return limits.userPerDay !== undefined || limits.workspacePerDay !== undefined;
}

export function dailyImageLimits(holder: ReservationHolder, limits: ImageLimits): DailyImageLimit[] {
  return [
    ...(limits.userPerDay === undefined ? [] : [{ scope: userScope(holder), images: limits.userPerDay }]),
    ...(limits.workspacePerDay === undefined ? [] : [{ scope: budgetScope(holder), images: limits.workspacePerDay }]),
  ];
}

/**
 * Why `images` more would pass a limit, as the totals stand now: the person's quota first, then
 * the workspace's budget. Undefined when they fit. Only a reservation holds them.
 */
export async function imageLimitRefusal(
  usage: Pick<UsageLedger, 'totals'>,
  holder: ReservationHolder,
  images: number,
  limits: ImageLimits,
  now: Date,
): Promise<ImageRefusal | undefined> {
  const resets = secondsToUtcMidnight(now);
  const { userPerDay, workspacePerDay } = limits;
  if (userPerDay !== undefined) {
    const { today } = await usage.totals(userScope(holder));
    if (today.images + images > userPerDay) {
      return { answer: copy.quotaReached('images', userPerDay, resets), reason: 'quota' };
    }
  }
  if (workspacePerDay !== undefined) {
    const { today } = await usage.totals(budgetScope(holder));
    if (today.images + images > workspacePerDay) {
      const left = Math.max(0, workspacePerDay - today.images);
      return {
        answer: copy.budgetReached('images', workspacePerDay, left, budgetWhere(holder), resets),
        reason: 'budget',
      };
    }
  }
  return undefined;
}

/**
 * Reserves `images` for the holder's job (recorded already: the ledger's entry is the job's)
 * against the person's quota and the workspace's budget at once, in one step every process
 * sharing the store sees whole: of two requests for the last image, one is refused. A request
 * that would pass a limit is refused whole, in that limit's words.
 */
export async function reserveImages(
  usage: Pick<UsageLedger, 'reserveImages' | 'totals'>,
  holder: ReservationHolder,
  images: number,
  limits: ImageLimits,
  now: Date,
): Promise<ImageReservation> {
  if (await usage.reserveImages(holder, images, dailyImageLimits(holder, limits))) return { ok: true };
  const refusal = await imageLimitRefusal(usage, holder, images, limits, now);
  if (refusal !== undefined) return { ok: false, ...refusal };
  // Given back since (a job that made fewer): the limit that was set refused it all the same.
  const resets = secondsToUtcMidnight(now);
  return limits.workspacePerDay === undefined
    ? { ok: false, answer: copy.quotaReached('images', limits.userPerDay ?? 0, resets), reason: 'quota' }
    : {
        ok: false,
        answer: copy.budgetReached('images', limits.workspacePerDay, 0, budgetWhere(holder), resets),
        reason: 'budget',
      };
}

/**
 * The images a job asks for, reserved at admission: an `/imagine` and a Re-roll the place's
 * `images` (a Re-roll of an edit makes one, and gives the rest back when it ends), an edit or a
 * variation one, an Undo none (it shows an image again). A conversation reserves as its tools ask.
 */
export function imagesOf(job: ChatJob): number {
  switch (job.input.kind) {
    case 'mention':
    case 'undo':
      return 0;
    case 'imagine':
    case 'reroll':
      return job.settings?.images ?? 1;
    default:
      return 1;
  }
}

export function holderOf(job: ChatJob): ReservationHolder {
  return { jobId: job.id, platform: job.platform, workspaceId: job.workspaceId, userId: job.userId };
}

/**
 * For a job that ends without having run (withdrawn while it waited, given up on): the images
 * held for it at admission go back. One a worker never could read held none it could tell.
 */
export async function giveBackReservation(
  usage: Pick<UsageLedger, 'releaseImages'>,
  record: JobRecord,
  logger: ChatLogger,
): Promise<void> {
  let images: number;
  try {
    images = imagesOf(parseChatJob(record));
  } catch (error) {
    if (error instanceof UnreadableJobError) return;
    throw error;
  }
  if (images === 0) return;
  await usage
    .releaseImages(record.id, images)
    .catch((error: unknown) => logger.warn({ err: error, jobId: record.id }, 'could not give back the images held'));
}
