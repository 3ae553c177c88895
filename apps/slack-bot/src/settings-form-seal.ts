import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SettingLevel } from '@genbot/core/settings';
import { z } from 'zod';

/** What a settings form is about, carried through the modal's `private_metadata` (a view_submission names no channel). */
export interface SettingsFormPlace {
  level: SettingLevel;
  workspaceId: string;
  channelId: string;
  dm: boolean;
  /** Whom the form was opened for. */
  userId: string;
}

const sealed = z.strictObject({
  l: z.enum(['channel', 'workspace']),
  w: z.string().min(1),
  c: z.string().min(1),
  d: z.boolean(),
  u: z.string().min(1),
});

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

/**
 * Signs a settings form's place (HMAC-SHA256) so a submission or a level
 * switch names only what this app opened, for whom it opened it. The key is
 * derived from a secret every replica of the app holds (the signing secret,
 * or the app token in Socket Mode), so any replica can check any form.
 */
export class SettingsFormSeal {
  readonly #key: Buffer;

  constructor(sharedSecret: string) {
    this.#key = createHash('sha256').update('genbot settings form\0').update(sharedSecret).digest();
  }

  seal(place: SettingsFormPlace): string {
    const payload = Buffer.from(
      JSON.stringify({ l: place.level, w: place.workspaceId, c: place.channelId, d: place.dm, u: place.userId }),
    );
    return `${base64url(payload)}.${base64url(this.#mac(payload))}`;
  }

  /** The place a form was opened for; undefined when the metadata is not one this app sealed, unchanged. */
  open(metadata: string): SettingsFormPlace | undefined {
    const [body, mac, ...rest] = metadata.split('.');
    if (body === undefined || mac === undefined || rest.length > 0) return undefined;
    const payload = Buffer.from(body, 'base64url');
    const given = Buffer.from(mac, 'base64url');
    const expected = this.#mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const parsed = sealed.safeParse(JSON.parse(payload.toString('utf8')));
      if (!parsed.success) return undefined;
      const { l: level, w: workspaceId, c: channelId, d: dm, u: userId } = parsed.data;
      return { level, workspaceId, channelId, dm, userId };
    } catch {
      return undefined;
    }
  }

  #mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.#key).update(payload).digest();
  }
}
