import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Engines, enginesInstalled, type Outside, startEngines } from './engines.js';
import { BALANCED, environmentOf, PROCESSES } from './topology.js';

const installed = enginesInstalled();

const outside: Outside = {
  genai: { baseUrl: 'http://127.0.0.1:1', apiKey: 'key' },
  slack: { botToken: 'xoxb-test', signingSecret: 'secret' },
  discord: { token: 'token', applicationId: '42' },
};

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.runIf(installed)("the topology's engines on loopback", () => {
  let engines: Engines;
  const replicas: Server[] = [];
  beforeAll(async () => {
    engines = await startEngines();
  });
  afterAll(async () => {
    for (const replica of replicas) replica.close();
    await engines?.close();
  });

  it('runs Redis and PostgreSQL where the processes are told to find them', async () => {
    for (const process of PROCESSES) {
      const env = environmentOf(process, engines.endpointsOf(process, outside));
      expect(env.REDIS_URL).toBe(engines.redis.url);
      expect(env.DATABASE_URL).toBe(engines.postgres.url);
      expect(env.HEALTH_PORT).toBe(String(engines.healthPorts.get(process.name)));
    }
    expect(await accepts(engines.redis.url)).toBe(true);
    expect(await accepts(engines.postgres.url)).toBe(true);
    expect(new Set(engines.healthPorts.values()).size).toBe(PROCESSES.length);
  });

  it("balances Slack's requests over the ports the replicas are given", async () => {
    for (const process of BALANCED) {
      const port = Number(environmentOf(process, engines.endpointsOf(process, outside)).SLACK_PORT);
      const replica = createServer((request, response) => {
        request.resume();
        response.end(process.name);
      });
      await new Promise<void>((resolve) => replica.listen(port, '127.0.0.1', resolve));
      replicas.push(replica);
    }
    const answers = new Set<string>();
    for (let i = 0; i < BALANCED.length; i++) {
      answers.add(await (await fetch(engines.requestUrl, { method: 'POST', body: '{}' })).text());
    }
    expect([...answers].sort()).toEqual(BALANCED.map((process) => process.name).sort());
  });
});
