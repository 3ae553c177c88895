import type { Platform, StoredPlace } from './where.js';

/** One image of a job; buttons point at it with these two values. */
export interface ImageVersionKey {
  jobId: string;
  index: number;
}

/**
 * An image the bot posts. The bytes stay on the platform: the record keeps
 * where they are (message and file ids) and enough to check a download (type,
 * size, hash). It is recorded just before it is posted (without ids: a press
 * on the result always finds it) and again once the platform took it.
 */
export interface NewImageVersion extends ImageVersionKey, StoredPlace {
  /** The message that shows it; unknown until posted (Slack learns it from the file's shares). */
  messageId?: string | undefined;
  fileId?: string | undefined;
  mimeType: string;
  sizeBytes: number;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
  /** The version it was made from, for an edit or a variation. */
  parent?: ImageVersionKey | undefined;
  /** The prompt that made it, or the instruction that edited its parent. */
  prompt: string;
  /**
   * How it was made (absent: `generated`, or `edited` when it has a parent).
   * A `restored` version shows its parent again (an undo): same image, same number.
   */
  origin?: VersionOrigin | undefined;
  /** The aspect ratio it was generated with, so a re-roll asks for the same. */
  aspectRatio?: string | undefined;
}

export type VersionOrigin = 'generated' | 'edited' | 'varied' | 'restored';

export interface ImageVersion extends NewImageVersion {
  /** The short opaque id buttons carry (`versionRef(jobId, index)`), unique. */
  ref: string;
  origin: VersionOrigin;
  /**
   * Its number in its image tree, in the order versions were made: 1 for the
   * first (a generated image, or an edit of an image the bot did not make),
   * the tree's next number for every edit or variation on any branch, its
   * parent's for a restored one. Given by the store as the version is first
   * recorded, so it is the same on every process and after a restart.
   */
  number: number;
  createdAt: Date;
}

/** Whether the platform took the version (its message or file id is known); before that, its result is being posted. */
export function isPosted(version: Pick<NewImageVersion, 'messageId' | 'fileId'>): boolean {
  return version.messageId !== undefined || version.fileId !== undefined;
}

export interface ImageVersionStore {
  /**
   * Records a version, numbering it (see `ImageVersion.number`) in the same
   * transaction, or updates the one with the same key (the message and file
   * ids arrive after the upload), keeping its number. Returns it as stored.
   */
  record(version: NewImageVersion): Promise<ImageVersion>;

  get(key: ImageVersionKey): Promise<ImageVersion | undefined>;

  /** The version a button's id points at; undefined when it is gone (retention) or never existed (forged). */
  byRef(ref: string): Promise<ImageVersion | undefined>;

  /** The versions a message shows, by index. */
  byMessage(platform: Platform, channelId: string, messageId: string): Promise<ImageVersion[]>;

  /** The newest version posted in a thread (Slack: what a mention in the thread edits). */
  latestInThread(platform: Platform, channelId: string, threadId: string): Promise<ImageVersion | undefined>;
}
