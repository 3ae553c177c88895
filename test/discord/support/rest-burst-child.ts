/**
 * One process of a bot sending a burst of REST requests with discord.js, as a
 * shard or a worker would: with a Redis URL through the shared global limit,
 * without one holding only itself to the limit (discord.js's own counting).
 * Args: API URL, bot token, requests, limit a second, Redis URL (optional).
 * Prints `done N` once every request has been answered.
 */
import { sharedRestLimit } from '@genbot/discord-bot';
import { connectRedis, RedisChannelPace } from '@genbot/queue';
import { REST } from 'discord.js';

const [apiUrl, token, requests, perSecond, redisUrl] = process.argv.slice(2);
if (apiUrl === undefined || token === undefined || requests === undefined || perSecond === undefined) {
  throw new Error('usage: rest-burst-child API_URL TOKEN REQUESTS PER_SECOND [REDIS_URL]');
}
const redis = redisUrl === undefined ? undefined : await connectRedis(redisUrl);
const rest = new REST({
  api: apiUrl,
  globalRequestsPerSecond: Number(perSecond),
  ...(redis && {
    makeRequest: sharedRestLimit({ pace: new RedisChannelPace(redis), token, perSecond: Number(perSecond) }),
  }),
}).setToken(token);
process.stdout.write('ready\n');
// Both processes start their bursts together, when the test says so.
await new Promise((resolve) => process.stdin.once('data', resolve));
await Promise.all(Array.from({ length: Number(requests) }, () => rest.get('/users/@me')));
process.stdout.write(`done ${requests}\n`);
redis?.disconnect();
process.exit(0);
