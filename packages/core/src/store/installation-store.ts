/**
 * One app installation into a workspace, as the store keeps it. Only what
 * finds a row is in the clear; the installation itself (tokens, refresh
 * tokens, expiry, bot ids) is sealed by the caller before it gets here, so
 * the database never holds a token it could show.
 */
export interface StoredInstallation {
  /** The enterprise ID for an org-wide install, else the team ID. */
  key: string;
  enterpriseId: string | undefined;
  teamId: string | undefined;
  /** The installation, encrypted: opaque to the store. */
  sealed: string;
  installedAt: Date;
  updatedAt: Date;
}

export type NewInstallation = Pick<StoredInstallation, 'key' | 'enterpriseId' | 'teamId' | 'sealed'>;

/**
 * Installations of the app (Slack's OAuth v2), and the one-use states of
 * installs under way. A state is taken once, on any process: a second take
 * of the same state finds nothing.
 */
export interface InstallationStore {
  /** Stores or replaces the installation under its key (an install again, a refreshed token). */
  put(installation: NewInstallation): Promise<void>;
  get(key: string): Promise<StoredInstallation | undefined>;
  /**
   * Replaces the sealed installation only while it is still `previous` (a
   * key rotation's sealing again must not undo a token refreshed meanwhile);
   * true when replaced.
   */
  reseal(key: string, previous: string, next: string): Promise<boolean>;
  /** Deletes the installation, and its teams' links; false when there was none. */
  delete(key: string): Promise<boolean>;
  /**
   * Records that `teamId` is answered through the org-wide installation
   * `key`: a job knows its team only, and finds the installation this way.
   */
  linkTeam(teamId: string, key: string): Promise<void>;
  /** The installation a team was linked to, if any. */
  linkedKey(teamId: string): Promise<string | undefined>;
  /**
   * Takes the lease on an installation for `holder` until `until`, so one
   * process at a time refreshes its token; true when taken (or already held
   * by `holder`), false while another holds it.
   */
  lease(key: string, holder: string, until: Date): Promise<boolean>;
  /** Gives the lease back, when `holder` holds it. */
  release(key: string, holder: string): Promise<void>;
  /** Records a state handed out for an install, good until `expiresAt`. */
  putState(state: string, expiresAt: Date, payload: string): Promise<void>;
  /** The state's payload, once: the state is gone afterwards. Undefined when unknown, taken or expired. */
  takeState(state: string): Promise<string | undefined>;
}
