import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Discord signs attachment URLs for about a day. */
const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Signed, expiring attachment URLs as Discord's CDN hands them out since 2024:
 * `?ex=<expiry, hex seconds>&is=<issued, hex seconds>&hm=<signature>`. Every
 * message rendered (an event, a fetch) carries freshly signed URLs; the CDN
 * answers 404 for a URL whose signature is missing, wrong or past its expiry.
 */
export class CdnSigner {
  readonly #secret = randomBytes(32);
  #ttlMs = DEFAULT_TTL_MS;
  /** URLs signed before the last `expireAll` are refused, as if their day had passed. */
  #generation = 0;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** `path` with a signature valid from now on. */
  sign(path: string): string {
    const issued = Math.floor(this.#now() / 1000);
    const expires = Math.floor((this.#now() + this.#ttlMs) / 1000);
    const [ex, is] = [expires.toString(16), issued.toString(16)];
    return `${path}?ex=${ex}&is=${is}&hm=${this.#mac(path, ex, is)}&`;
  }

  /** Whether a request for `path` with these query parameters may have the file. */
  verify(path: string, query: { ex?: string | undefined; is?: string | undefined; hm?: string | undefined }): boolean {
    const { ex, is, hm } = query;
    if (ex === undefined || is === undefined || hm === undefined) return false;
    const expected = Buffer.from(this.#mac(path, ex, is));
    const given = Buffer.from(hm);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    return Number.parseInt(ex, 16) * 1000 > this.#now();
  }

  /** Every URL handed out so far stops working (tests of expired links); messages fetched again get new ones. */
  expireAll(): void {
    this.#generation += 1;
  }

  #mac(path: string, ex: string, is: string): string {
    return createHmac('sha256', this.#secret).update(`${this.#generation}:${path}:${ex}:${is}`).digest('hex');
  }
}
