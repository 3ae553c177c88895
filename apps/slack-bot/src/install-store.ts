import type { Logger } from '@genbot/core/log';
import type { InstallationStore as InstallationPort } from '@genbot/core/store';
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { z } from 'zod';
import type { InstallationSealer } from './install-sealing.js';

/** Where an installation is kept: its enterprise for an org-wide install, else its team. */
export function installationKey(query: {
  isEnterpriseInstall?: boolean | undefined;
  enterpriseId?: string | undefined;
  teamId?: string | undefined;
}): string {
  const key = query.isEnterpriseInstall === true ? query.enterpriseId : query.teamId;
  if (key === undefined || key === '') throw new Error('an installation with neither a team nor an enterprise');
  return key;
}

/** Thrown when a workspace has no installation (never installed, or uninstalled). */
export class NotInstalledError extends Error {}

const tokenHolder = {
  token: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  refreshToken: z.string().optional(),
  expiresAt: z.number().optional(),
};

/** What a sealed installation must hold to be used; the rest of Bolt's fields pass through as they were. */
const installationSchema = z.looseObject({
  team: z.looseObject({ id: z.string(), name: z.string().optional() }).optional(),
  enterprise: z.looseObject({ id: z.string(), name: z.string().optional() }).optional(),
  isEnterpriseInstall: z.boolean().optional(),
  authVersion: z.enum(['v1', 'v2']).optional(),
  bot: z.looseObject({ ...tokenHolder, token: z.string(), id: z.string(), userId: z.string() }).optional(),
  user: z.looseObject({ ...tokenHolder, id: z.string() }),
});

/**
 * Bolt's InstallationStore on the Store's `installations`: every
 * installation is sealed (SECRETS_KEY) before it is written and opened when
 * read; one sealed under SECRETS_KEY_PREVIOUS is sealed again under the new
 * key as it is read, so a key rotation completes as workspaces are used.
 */
export class SealedInstallationStore implements InstallationStore {
  readonly #store: InstallationPort;
  readonly #sealer: InstallationSealer;
  readonly #logger: Logger;

  constructor(options: { store: InstallationPort; sealer: InstallationSealer; logger: Logger }) {
    this.#store = options.store;
    this.#sealer = options.sealer;
    this.#logger = options.logger;
  }

  async storeInstallation<AuthVersion extends 'v1' | 'v2'>(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    const key = installationKey({
      isEnterpriseInstall: installation.isEnterpriseInstall,
      enterpriseId: installation.enterprise?.id,
      teamId: installation.team?.id,
    });
    await this.#store.put({
      key,
      enterpriseId: installation.enterprise?.id,
      teamId: installation.team?.id,
      sealed: this.#sealer.seal(JSON.stringify(installation), key),
    });
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<'v1' | 'v2', boolean>> {
    const found = await this.find(installationKey(query));
    if (found === undefined) throw new NotInstalledError(`genbot is not installed in ${installationKey(query)}`);
    return found;
  }

  /** The installation under `key`, or undefined when there is none. */
  async find(key: string): Promise<Installation<'v1' | 'v2', boolean> | undefined> {
    const row = await this.#store.get(key);
    if (row === undefined) return undefined;
    const opened = this.#sealer.open(row.sealed, key);
    // Sealed by us and authenticated by GCM: a shape check, not a defence.
    const installation = installationSchema.parse(JSON.parse(opened.plain)) as Installation<'v1' | 'v2', boolean>;
    if (opened.stale && (await this.#store.reseal(key, row.sealed, this.#sealer.seal(opened.plain, key)))) {
      this.#logger.info({ installation: key }, 'installation sealed again under the new SECRETS_KEY');
    }
    return installation;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    await this.#store.delete(installationKey(query));
  }
}
