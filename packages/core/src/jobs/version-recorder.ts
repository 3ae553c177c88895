import type { UploadFile, UploadReceipt } from '../surface/surface.js';
import type { VersionLineage } from '../chat/version-lineage.js';
import type { ImageVersionStore, NewImageVersion } from '../store/index.js';
import { type ChatJob, targetOf } from './chat-job.js';
import { sha256Hex } from './image-digest.js';
import { askedIn } from './parse-chat-job.js';
import type { UploadRecorder } from './recorded-surface.js';
import type { StoredCall } from './until-stored.js';

/**
 * Records a job's images as versions around each upload: each image is
 * hashed and its record built once, numbered before the upload (a press on
 * the result finds it the moment it shows) and given the message and file
 * ids after it, when the platform told them. Run again over an upload a
 * crashed run made, the images are recorded once, with the ids its step kept.
 */
export function versionRecorder(
  job: ChatJob,
  /** What the images are in the version tree, as it stands at each upload (a conversation's tool calls change it). */
  lineageNow: () => VersionLineage | undefined,
  store: { versions: Pick<ImageVersionStore, 'record'>; stored: StoredCall },
): UploadRecorder {
  const built = new Map<number, NewImageVersion[]>();
  const build = async (files: readonly UploadFile[], first: number): Promise<NewImageVersion[]> => {
    const kept = built.get(first);
    if (kept !== undefined) return kept;
    const target = targetOf(job);
    const lineage = lineageNow();
    const versions: NewImageVersion[] = [];
    for (const [offset, file] of files.entries()) {
      versions.push({
        jobId: job.id,
        index: first + offset,
        platform: job.platform,
        workspaceId: job.workspaceId,
        channelId: target.channelId,
        threadId: target.threadId,
        mimeType: file.mimeType,
        sizeBytes: file.bytes.byteLength,
        sha256: await sha256Hex(file.bytes),
        parent: lineage?.parent,
        prompt: lineage?.prompt ?? askedIn(job),
        origin: lineage?.origin,
        aspectRatio: lineage?.aspectRatio,
      });
    }
    built.set(first, versions);
    return versions;
  };
  const record = async (versions: readonly NewImageVersion[]): Promise<number[]> => {
    const numbers: number[] = [];
    for (const version of versions) {
      const recorded = await store.stored('record an image version', () => store.versions.record(version));
      numbers.push(recorded.number);
    }
    return numbers;
  };
  return {
    before: async (files, first) => record(await build(files, first)),
    after: async (files: readonly UploadFile[], receipt: UploadReceipt, first: number) => {
      const numbered = built.has(first);
      const versions = await build(files, first);
      built.delete(first);
      // Numbered before the upload and no id learnt since: the record already says all there is.
      if (numbered && receipt.messageId === undefined && receipt.fileIds === undefined) return;
      await record(
        versions.map((version, offset) => ({
          ...version,
          messageId: receipt.messageId,
          fileId: receipt.fileIds?.[offset],
        })),
      );
    },
  };
}
