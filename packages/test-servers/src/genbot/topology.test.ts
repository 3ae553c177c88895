import { describe, expect, it } from 'vitest';
import { type Endpoints, environmentNames, environmentOf, PROCESSES } from './topology.js';

const endpoints: Endpoints = {
  redisUrl: 'redis://127.0.0.1:6390',
  databaseUrl: 'postgres://postgres@127.0.0.1:5490/postgres',
  healthPort: 9191,
  slackPort: 3111,
  genai: { baseUrl: 'http://127.0.0.1:7000', apiKey: 'key' },
  slack: { botToken: 'xoxb-test', signingSecret: 'secret', apiUrl: 'http://127.0.0.1:7001/api/' },
  discord: { token: 'token', applicationId: '42', apiUrl: 'http://127.0.0.1:7002/api' },
};

function named(name: string) {
  const process = PROCESSES.find((candidate) => candidate.name === name);
  if (process === undefined) throw new Error(`no process ${name}`);
  return process;
}

describe('the topology', () => {
  it('gives each process exactly its names, plus the API URLs of the platforms it talks to', () => {
    for (const process of PROCESSES) {
      const env = environmentOf(process, endpoints);
      const apiUrls = Object.keys(env).filter((name) => name.endsWith('_API_URL'));
      expect(
        Object.keys(env)
          .filter((name) => !apiUrls.includes(name))
          .sort(),
        process.name,
      ).toEqual(environmentNames(process));
      expect(apiUrls.sort(), process.name).toEqual(
        { slack: ['SLACK_API_URL'], discord: ['DISCORD_API_URL'], worker: ['DISCORD_API_URL', 'SLACK_API_URL'] }[
          process.role
        ],
      );
    }
  });

  it('runs two shards of two, one per Discord process', () => {
    expect(environmentOf(named('discord-0'), endpoints)).toMatchObject({
      DISCORD_SHARD_COUNT: '2',
      DISCORD_SHARD_IDS: '0',
      HEALTH_PORT: '9191',
    });
    expect(environmentOf(named('discord-1'), endpoints)).toMatchObject({ DISCORD_SHARD_IDS: '1' });
  });

  it('refuses to start a Slack replica without the port the balancer reaches it on', () => {
    const { slackPort: _, ...withoutPort } = endpoints;
    expect(() => environmentOf(named('slack-1'), withoutPort)).toThrow('slack-1 needs SLACK_PORT');
    expect(environmentOf(named('worker-1'), withoutPort).SLACK_PORT).toBeUndefined();
  });
});
