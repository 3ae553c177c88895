import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM: a 96-bit nonce per seal, a 128-bit tag. */
const NONCE_BYTES = 12;
const FORMAT = 'v1';

/** A key's public name: which key sealed a row, without saying anything of the key. */
function keyId(key: Buffer): string {
  return createHash('sha256').update('genbot-secrets-key').update(key).digest('base64url').slice(0, 8);
}

/** Thrown when a sealed value opens with neither key: tampered with, or sealed under a key that is gone. */
export class UnsealError extends Error {}

/**
 * Seals text (a workspace's installation, its tokens in it) under SECRETS_KEY
 * and opens what either SECRETS_KEY or SECRETS_KEY_PREVIOUS sealed, so the
 * key can be rotated while rows sealed under the old one are still read.
 * `context` (the row's key) is bound in as associated data: a sealed value
 * copied onto another row does not open there.
 */
export class InstallationSealer {
  readonly #current: { id: string; key: Buffer };
  readonly #previous: { id: string; key: Buffer } | undefined;

  constructor(keys: { current: Buffer; previous?: Buffer | undefined }) {
    this.#current = { id: keyId(keys.current), key: keys.current };
    this.#previous = keys.previous === undefined ? undefined : { id: keyId(keys.previous), key: keys.previous };
  }

  seal(plain: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [FORMAT, this.#current.id, nonce, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plain text, and whether it was sealed under the previous key (so it should be sealed again). */
  open(sealed: string, context: string): { plain: string; stale: boolean } {
    const [format, id, nonce, tag, body, ...rest] = sealed.split('.');
    if (format !== FORMAT || nonce === undefined || tag === undefined || body === undefined || rest.length > 0) {
      throw new UnsealError('a sealed installation in an unknown format');
    }
    const key = [this.#current, this.#previous].find((candidate) => candidate?.id === id);
    if (key === undefined) {
      throw new UnsealError('an installation sealed under a key that is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      return { plain, stale: key !== this.#current };
    } catch {
      throw new UnsealError('a sealed installation that does not open: altered, or not sealed for this row');
    }
  }
}
