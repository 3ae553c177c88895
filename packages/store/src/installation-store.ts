import type { InstallationStore, NewInstallation, StoredInstallation } from '@genbot/core/store';
import { z } from 'zod';
import { iso, type StoreContext } from './store-context.js';

const timestamp = z.union([z.date(), z.iso.datetime()]).transform((value) => new Date(value));
const optionalText = z
  .string()
  .nullable()
  .transform((value) => value ?? undefined);

const installationRow = z.object({
  key: z.string(),
  enterprise_id: optionalText,
  team_id: optionalText,
  sealed: z.string(),
  installed_at: timestamp,
  updated_at: timestamp,
});

function parseInstallation(row: unknown): StoredInstallation {
  const parsed = installationRow.parse(row);
  return {
    key: parsed.key,
    enterpriseId: parsed.enterprise_id,
    teamId: parsed.team_id,
    sealed: parsed.sealed,
    installedAt: parsed.installed_at,
    updatedAt: parsed.updated_at,
  };
}

const stateRow = z.object({ payload: z.string(), expires_at: timestamp });

export function createInstallationStore({ db, now }: StoreContext): InstallationStore {
  return {
    async put(installation: NewInstallation): Promise<void> {
      const at = iso(now());
      const update = {
        enterprise_id: installation.enterpriseId ?? null,
        team_id: installation.teamId ?? null,
        sealed: installation.sealed,
        updated_at: at,
      };
      await db
        .insertInto('installations')
        .values({ key: installation.key, ...update, installed_at: at })
        .onConflict((conflict) => conflict.column('key').doUpdateSet(update))
        .execute();
    },

    async get(key: string): Promise<StoredInstallation | undefined> {
      const row = await db
        .selectFrom('installations')
        .select(['key', 'enterprise_id', 'team_id', 'sealed', 'installed_at', 'updated_at'])
        .where('key', '=', key)
        .executeTakeFirst();
      return row === undefined ? undefined : parseInstallation(row);
    },

    async reseal(key: string, previous: string, next: string): Promise<boolean> {
      const result = await db
        .updateTable('installations')
        .set({ sealed: next })
        .where('key', '=', key)
        .where('sealed', '=', previous)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async delete(key: string): Promise<boolean> {
      await db.deleteFrom('installation_teams').where('installation_key', '=', key).execute();
      const result = await db.deleteFrom('installations').where('key', '=', key).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async linkTeam(teamId: string, key: string): Promise<void> {
      await db
        .insertInto('installation_teams')
        .values({ team_id: teamId, installation_key: key })
        .onConflict((conflict) => conflict.column('team_id').doUpdateSet({ installation_key: key }))
        .execute();
    },

    async linkedKey(teamId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('installation_teams')
        .select('installation_key')
        .where('team_id', '=', teamId)
        .executeTakeFirst();
      return row === undefined ? undefined : z.string().parse(row.installation_key);
    },

    async lease(key: string, holder: string, until: Date): Promise<boolean> {
      // One conditional update: whichever process writes first holds it, on either dialect.
      const result = await db
        .updateTable('installations')
        .set({ lease_holder: holder, lease_until: iso(until) })
        .where('key', '=', key)
        .where((eb) =>
          eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', iso(now())), eb('lease_holder', '=', holder)]),
        )
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async release(key: string, holder: string): Promise<void> {
      await db
        .updateTable('installations')
        .set({ lease_holder: null, lease_until: null })
        .where('key', '=', key)
        .where('lease_holder', '=', holder)
        .execute();
    },

    async putState(state: string, expiresAt: Date, payload: string): Promise<void> {
      // States nobody came back with would pile up: each new one clears the expired.
      await db.deleteFrom('oauth_states').where('expires_at', '<', iso(now())).execute();
      await db
        .insertInto('oauth_states')
        .values({ state, payload, expires_at: iso(expiresAt) })
        .execute();
    },

    async takeState(state: string): Promise<string | undefined> {
      // Deleting is the taking: of two processes given the same state, one deletes the row.
      const row = await db
        .deleteFrom('oauth_states')
        .where('state', '=', state)
        .returning(['payload', 'expires_at'])
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const taken = stateRow.parse(row);
      return taken.expires_at.getTime() > now().getTime() ? taken.payload : undefined;
    },
  };
}
