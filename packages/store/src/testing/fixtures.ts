import type { CachedThreadMessage, NewImageVersion, NewJob, ReservationHolder, UsageEntry } from '@genbot/core/store';

export function newJob(id: string, overrides: Partial<NewJob> = {}): NewJob {
  return {
    id,
    kind: 'imagine',
    schemaVersion: 1,
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    userId: 'U1',
    input: { prompt: 'a lighthouse at dawn', aspectRatio: '16:9', count: 2, draft: false, tags: ['x', null] },
    ...overrides,
  };
}

export function newVersion(jobId: string, index: number, overrides: Partial<NewImageVersion> = {}): NewImageVersion {
  return {
    jobId,
    index,
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    threadId: '1700000000.000100',
    mimeType: 'image/png',
    sizeBytes: 123_456,
    sha256: 'a'.repeat(64),
    prompt: 'a lighthouse at dawn',
    ...overrides,
  };
}

export function usage(jobId: string, overrides: Partial<UsageEntry> = {}): UsageEntry {
  return {
    jobId,
    platform: 'slack',
    workspaceId: 'T1',
    userId: 'U1',
    images: 0,
    inputTokens: 0,
    outputTokens: 0,
    tokensEstimated: false,
    ...overrides,
  };
}

export function reservationHolder(jobId: string, overrides: Partial<ReservationHolder> = {}): ReservationHolder {
  return { jobId, platform: 'slack', workspaceId: 'T1', userId: 'U1', ...overrides };
}

export function threadMessage(
  id: string,
  postedAt: string,
  overrides: Partial<CachedThreadMessage> = {},
): CachedThreadMessage {
  return {
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    threadId: 'T-100',
    id,
    author: { id: 'U1', name: 'Ada', isBot: false, isSelf: false },
    text: `message ${id}`,
    attachments: [],
    postedAt: new Date(postedAt),
    ...overrides,
  };
}
