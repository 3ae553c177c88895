import type {
  ImageVersion,
  ImageVersionKey,
  ImageVersionStore,
  NewImageVersion,
  Platform,
} from '../src/store/index.js';
import { isPosted, versionRef } from '../src/store/index.js';

type Row = ImageVersion & { tree: string };

function stored(row: Row): ImageVersion {
  const { tree: _tree, ...version } = row;
  return version;
}

/** The ImageVersionStore port in memory, for core's own tests (packages/store holds the real ones to the same contract). */
export class MemoryVersions implements ImageVersionStore {
  readonly #rows = new Map<string, Row>();

  async record(version: NewImageVersion): Promise<ImageVersion> {
    const existing = this.#rows.get(keyOf(version));
    const origin = version.origin ?? (version.parent === undefined ? 'generated' : 'edited');
    const parent = version.parent === undefined ? undefined : this.#rows.get(keyOf(version.parent));
    const tree = existing?.tree ?? parent?.tree ?? versionRef(version.jobId, version.index);
    const inTree = [...this.#rows.values()].filter((row) => row.tree === tree).map((row) => row.number);
    const number =
      existing?.number ?? (parent === undefined ? 1 : origin === 'restored' ? parent.number : Math.max(...inTree) + 1);
    const row: Row = {
      ...version,
      ref: versionRef(version.jobId, version.index),
      origin,
      number,
      tree,
      createdAt: existing?.createdAt ?? new Date(),
    };
    this.#rows.set(keyOf(version), row);
    return stored(row);
  }

  async get(key: ImageVersionKey): Promise<ImageVersion | undefined> {
    const row = this.#rows.get(keyOf(key));
    return row === undefined ? undefined : stored(row);
  }

  async byRef(ref: string): Promise<ImageVersion | undefined> {
    const row = [...this.#rows.values()].find((candidate) => candidate.ref === ref);
    return row === undefined ? undefined : stored(row);
  }

  async byMessage(platform: Platform, channelId: string, messageId: string): Promise<ImageVersion[]> {
    return [...this.#rows.values()]
      .filter((row) => row.platform === platform && row.channelId === channelId && row.messageId === messageId)
      .map(stored);
  }

  async latestInThread(platform: Platform, channelId: string, threadId: string): Promise<ImageVersion | undefined> {
    const row = [...this.#rows.values()]
      .filter(
        (candidate) =>
          candidate.platform === platform &&
          candidate.channelId === channelId &&
          candidate.threadId === threadId &&
          isPosted(candidate),
      )
      .at(-1);
    return row === undefined ? undefined : stored(row);
  }

  /** Forgets a version, as the retention sweep would. */
  forget(key: ImageVersionKey): void {
    this.#rows.delete(keyOf(key));
  }
}

function keyOf(key: ImageVersionKey): string {
  return `${key.jobId}#${key.index}`;
}

/** A version as the worker records it, with what a test does not care about filled in. */
export function version(jobId: string, index: number, overrides: Partial<NewImageVersion> = {}): NewImageVersion {
  return {
    jobId,
    index,
    platform: 'slack',
    workspaceId: 'T1',
    channelId: 'C1',
    threadId: 'T1',
    messageId: `M-${jobId}`,
    fileId: `F-${jobId}-${index}`,
    mimeType: 'image/png',
    sizeBytes: 100,
    sha256: 'ab',
    prompt: 'a lighthouse at dawn',
    ...overrides,
  };
}
