import { createHash } from 'node:crypto';

/**
 * The short opaque id of an image version that buttons carry: 16 base64url
 * characters of a hash of its key, so it names no prompt, user or trigger,
 * is the same on every process and after a restart, and is known before the
 * image is uploaded (the buttons travel with it).
 */
export function versionRef(jobId: string, index: number): string {
  return createHash('sha256').update(`${jobId}\n${index}`).digest('base64url').slice(0, 16);
}
