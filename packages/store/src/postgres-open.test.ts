import { StoreUnavailableError } from '@genbot/core/store';
import {
  findPostgresBin,
  freeLoopbackPort,
  installedOrSkipped,
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  startPostgres,
} from '@genbot/test-servers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from './open-store.js';
import { newJob } from './testing/fixtures.js';

const installed = installedOrSkipped({
  name: 'PostgreSQL',
  found: findPostgresBin() !== undefined,
  install: POSTGRES_INSTALL_HINT,
});

describe('PostgreSQL that is down at start', () => {
  it('is refused with a message naming DATABASE_URL and no password, and may be retried', async () => {
    const port = await freeLoopbackPort();
    const opening = openStore(`postgres://genbot:hunter2@127.0.0.1:${port}/genbot?sslmode=disable`);
    await expect(opening).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(opening).rejects.toThrow(
      `DATABASE_URL: PostgreSQL at postgres://genbot@127.0.0.1:${port}/genbot cannot be reached (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}): is it running?`,
    );
    await expect(opening).rejects.toMatchObject({ retryable: true });
  });
});

describe.runIf(installed)('PostgreSQL', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgres();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('names a database that does not exist', async () => {
    await expect(openStore(server.urlOf('no_such_database'))).rejects.toThrow(
      new RegExp(
        `^DATABASE_URL: PostgreSQL at postgres://postgres@127\\.0\\.0\\.1:${server.port}/no_such_database: the database does not exist \\(3D000: database "no_such_database" does not exist\\); create it first$`,
      ),
    );
  });

  it('that goes away mid-run fails calls as unavailable, keeps what was recorded, and serves again when back', async () => {
    const warnings: { details: object; message: string | undefined }[] = [];
    const store = await openStore(server.url, {
      logger: { warn: (details, message) => warnings.push({ details, message }) },
    });
    try {
      await store.jobs.record(newJob('before-the-outage'));
      await server.stop();
      // The pool's idle connection died with the server: logged, not thrown into the process.
      await vi.waitFor(() =>
        expect(warnings).toContainEqual({
          details: expect.objectContaining({ database: `postgres://postgres@127.0.0.1:${server.port}/postgres` }),
          message: 'a PostgreSQL connection was lost',
        }),
      );

      const call = store.jobs.get('before-the-outage');
      await expect(call).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(call).rejects.toThrow(
        /^DATABASE_URL: PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres cannot be reached/,
      );
      await expect(store.ping()).rejects.toMatchObject({ name: 'StoreUnavailableError', retryable: true });

      await server.start();
      await expect(store.ping()).resolves.toBeUndefined();
      expect((await store.jobs.get('before-the-outage'))?.id).toBe('before-the-outage');
    } finally {
      await store.close();
    }
  });
});
