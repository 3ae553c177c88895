import type { JsonValue, Platform, SettingChange, SettingScope, SettingsStore } from '../store/index.js';
import type { OperatorSettings, SettingLevel, SettingName } from './catalogue.js';
import { type ResolvedSettings, resolveSettings } from './resolve-settings.js';

/** Where a request came from, for its settings: a channel of a workspace, or a DM (no channel level; always on). */
export interface SettingsPlace {
  platform: Platform;
  /** Absent in a Discord DM: the operator's settings apply there. */
  workspaceId?: string | undefined;
  channelId: string;
  /** A direct message: not a channel, so only the workspace's settings apply, and `enabled` never turns it off. */
  dm?: boolean | undefined;
}

export interface PlaceSettingsOptions {
  store: SettingsStore;
  operator: OperatorSettings;
  /**
   * How long a place's settings read from the store are used before they are
   * read again: a change made by another process shows within this (plus one
   * read); this process's own changes show at once.
   */
  freshForMs?: number;
  now?: () => number;
}

/** Other processes see a change within 2 seconds (CONTRACT): one second of cache leaves room for the read. */
const DEFAULT_FRESH_FOR_MS = 1_000;

/** Past this many places cached, the cache starts again (each entry is good for a second anyway). */
const MAX_CACHED_PLACES = 10_000;

interface Cached {
  settings: ResolvedSettings;
  readAt: number;
}

const workspaceKey = (platform: Platform, workspaceId: string | undefined): string =>
  `${platform}:${workspaceId ?? ''}`;

/**
 * The settings every place runs with, read from the store and kept for a
 * moment: resolved once per request at intake (the job carries them), and
 * changed through here, so the process that made a change uses it from its
 * very next message.
 */
export class PlaceSettings {
  readonly operator: OperatorSettings;
  readonly #store: SettingsStore;
  readonly #freshForMs: number;
  readonly #now: () => number;
  readonly #cache = new Map<string, Cached>();

  constructor(options: PlaceSettingsOptions) {
    this.operator = options.operator;
    this.#store = options.store;
    this.#freshForMs = options.freshForMs ?? DEFAULT_FRESH_FOR_MS;
    this.#now = options.now ?? Date.now;
  }

  async resolve(place: SettingsPlace): Promise<ResolvedSettings> {
    if (place.dm !== true) return this.#read(place.platform, place.workspaceId, place.channelId);
    const resolved = await this.#read(place.platform, place.workspaceId, undefined);
    // A DM is not a channel: `enabled` is a channel's and workspace's switch for its channels.
    return { values: { ...resolved.values, enabled: true }, from: { ...resolved.from, enabled: 'default' } };
  }

  /** What a level of a place holds and inherits: its channel's view, or its workspace's alone (for the form). */
  view(place: SettingsPlace, level: SettingLevel): Promise<ResolvedSettings> {
    return level === 'workspace' ? this.#read(place.platform, place.workspaceId, undefined) : this.resolve(place);
  }

  async #read(
    platform: Platform,
    workspaceId: string | undefined,
    channelId: string | undefined,
  ): Promise<ResolvedSettings> {
    const key = `${workspaceKey(platform, workspaceId)}:${channelId ?? ''}`;
    const cached = this.#cache.get(key);
    const now = this.#now();
    if (cached !== undefined && now - cached.readAt < this.#freshForMs) return cached.settings;
    const stored = await this.#store.place({ platform, workspaceId, channelId });
    const settings = resolveSettings(stored, this.operator);
    if (this.#cache.size >= MAX_CACHED_PLACES) this.#cache.clear();
    this.#cache.set(key, { settings, readAt: now });
    return settings;
  }

  /**
   * Sets (or, with `value` undefined, resets) one setting of a place's
   * channel or workspace, recorded with who changed it. The value must have
   * been checked (`parseSetting`); who may change it is the caller's check.
   */
  async change(change: {
    place: SettingsPlace;
    level: SettingLevel;
    name: SettingName;
    value: JsonValue | undefined;
    by: string;
  }): Promise<SettingChange> {
    const { place, level, name, value, by } = change;
    const scope: SettingScope =
      level === 'channel'
        ? { level, platform: place.platform, workspaceId: place.workspaceId, channelId: place.channelId }
        : { level, platform: place.platform, workspaceId: place.workspaceId };
    const recorded = await this.#store.change(scope, name, value, by);
    this.#forget(place.platform, place.workspaceId);
    return recorded;
  }

  /** The latest changes of a place's channel and its workspace, newest first. */
  changes(place: SettingsPlace, limit: number): Promise<SettingChange[]> {
    return this.#store.changes(
      {
        platform: place.platform,
        workspaceId: place.workspaceId,
        channelId: place.dm === true ? undefined : place.channelId,
      },
      limit,
    );
  }

  /** A workspace's change reaches each of its channels: every cached place of it is read again. */
  #forget(platform: Platform, workspaceId: string | undefined): void {
    const prefix = `${workspaceKey(platform, workspaceId)}:`;
    for (const key of this.#cache.keys()) if (key.startsWith(prefix)) this.#cache.delete(key);
  }
}
