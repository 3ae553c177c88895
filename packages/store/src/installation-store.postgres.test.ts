import {
  findPostgresBin,
  installedOrSkipped,
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  startPostgres,
} from '@genbot/test-servers';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeInstallationContract } from './installation-store-contract.js';

const installed = installedOrSkipped({
  name: 'PostgreSQL',
  found: findPostgresBin() !== undefined,
  install: POSTGRES_INSTALL_HINT,
});

describe.runIf(installed)('PostgreSQL', () => {
  let server: PostgresServer;
  let admin: pg.Client;
  let databases = 0;

  beforeAll(async () => {
    server = await startPostgres();
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await server?.close();
  });

  describeInstallationContract('PostgreSQL', () => ({
    async freshUrl() {
      const name = `installations_${++databases}`;
      await admin.query(`create database ${name}`);
      return server.urlOf(name);
    },
  }));
});
