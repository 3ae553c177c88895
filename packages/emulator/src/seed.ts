import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** mulberry32 seeded from a hash of `seed`: the same seed always yields the same sequence. */
export function seededRandom(seed: string): () => number {
  let state = Number.parseInt(sha256Hex(seed).slice(0, 8), 16);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fills `target` with seeded noise, 32 bits per step so a few MiB stay cheap. */
export function fillNoise(target: Buffer, seed: string): void {
  let state = Number.parseInt(sha256Hex(seed).slice(0, 8), 16) || 1;
  const words = Math.floor(target.length / 4);
  for (let i = 0; i < words; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    target.writeUInt32LE(state >>> 0, i * 4);
  }
  for (let i = words * 4; i < target.length; i++) target[i] = (state >>> ((i % 4) * 8)) & 0xff;
}
