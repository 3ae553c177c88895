import type { JobLane } from './lane-limits.js';

/**
 * Each user's places (running or waiting jobs) per lane, counted across every
 * process: ingress takes a place when it admits a job, the worker gives it
 * back when the job ends. A place is held for at most `ttlMs`, so a process
 * that dies with places held does not lock its users out for good.
 */
export interface UserShares {
  /**
   * Takes a place for `jobId` unless the user already holds `cap` places in
   * the lane; true when the job holds one (taking it twice holds one place).
   */
  take(lane: JobLane, userId: string, jobId: string, cap: number, ttlMs: number): Promise<boolean>;
  /** Gives the job's place back; nothing happens when it holds none. */
  release(lane: JobLane, userId: string, jobId: string): Promise<void>;
  /** Places the user holds in the lane now. */
  held(lane: JobLane, userId: string): Promise<number>;
}

/** `UserShares` of one process. */
export class InMemoryUserShares implements UserShares {
  readonly #now: () => number;
  /** `lane user` -> job id -> when its place expires; users holding none have no entry. */
  readonly #places = new Map<string, Map<string, number>>();

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async take(lane: JobLane, userId: string, jobId: string, cap: number, ttlMs: number): Promise<boolean> {
    const places = this.#live(`${lane} ${userId}`);
    if (!places.has(jobId) && places.size >= cap) return false;
    places.set(jobId, this.#now() + ttlMs);
    this.#places.set(`${lane} ${userId}`, places);
    return true;
  }

  async release(lane: JobLane, userId: string, jobId: string): Promise<void> {
    const key = `${lane} ${userId}`;
    const places = this.#live(key);
    places.delete(jobId);
    if (places.size === 0) this.#places.delete(key);
  }

  async held(lane: JobLane, userId: string): Promise<number> {
    return this.#live(`${lane} ${userId}`).size;
  }

  #live(key: string): Map<string, number> {
    const places = this.#places.get(key) ?? new Map<string, number>();
    const now = this.#now();
    for (const [jobId, expiresAt] of places) if (expiresAt <= now) places.delete(jobId);
    return places;
  }
}
