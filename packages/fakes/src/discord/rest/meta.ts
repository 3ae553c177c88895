import { Hono } from 'hono';
import type { FakeContext } from '../context.js';
import { GATEWAY_PATH } from '../gateway.js';
import { APPLICATION_FLAG_MESSAGE_CONTENT } from '../permissions.js';
import { unknownGuild, unknownMember } from '../errors.js';
import { readRequestBody } from '../multipart.js';
import { openDmSchema, parseBody } from '../schemas.js';
import { wireApplication, wireChannel, wireGuild, wireMember, wireUser } from '../wire.js';

/** What `GET /gateway/bot` advises: how many shards to run, and how many may IDENTIFY at once. */
export interface GatewayBotAdvice {
  readonly shards: number;
  readonly maxConcurrency: number;
}

/** What a client asks before anything else: where the gateway is, who it is, its application. */
export function metaRoutes(ctx: FakeContext, allowMessageContentIntent: boolean, advice: GatewayBotAdvice): Hono {
  const gatewayUrl = `${ctx.origin.replace(/^http/, 'ws')}${GATEWAY_PATH}`;
  const applicationFlags = allowMessageContentIntent ? APPLICATION_FLAG_MESSAGE_CONTENT : 0;
  return (
    new Hono()
      .get('/gateway', (c) => c.json({ url: gatewayUrl }))
      .get('/gateway/bot', (c) =>
        c.json({
          url: gatewayUrl,
          shards: advice.shards,
          session_start_limit: {
            total: 1000,
            remaining: 999,
            reset_after: 86_400_000,
            max_concurrency: advice.maxConcurrency,
          },
        }),
      )
      .get('/users/@me', (c) => c.json({ ...wireUser(ctx.state.botUser), verified: true, mfa_enabled: false }))
      // The bot writes to a person privately (user.send): their DM, opened on first use.
      .post('/users/@me/channels', async (c) => {
        const body = parseBody(openDmSchema, (await readRequestBody(c.req.raw, 0)).payload);
        const user = ctx.state.users.find((candidate) => candidate.id === body.recipient_id);
        if (user === undefined) throw unknownMember();
        return c.json(wireChannel(ctx.state.dmChannel(user), ctx.state));
      })
      // A bot with no gateway (a job worker) reads the guild over REST before its channels.
      .get('/guilds/:guildId', (c) => {
        if (c.req.param('guildId') !== ctx.state.guild.id) throw unknownGuild();
        return c.json(wireGuild(ctx.state));
      })
      // A single member, as guild.members.fetch(id) asks for names the cache lacks.
      .get('/guilds/:guildId/members/:userId', (c) => {
        const user = ctx.state.users.find((candidate) => candidate.id === c.req.param('userId'));
        if (c.req.param('guildId') !== ctx.state.guild.id || user === undefined) throw unknownMember();
        return c.json(wireMember(user));
      })
      .get('/applications/@me', (c) => c.json(wireApplication(ctx.state, ctx.applicationId, applicationFlags)))
      .get('/oauth2/applications/@me', (c) => c.json(wireApplication(ctx.state, ctx.applicationId, applicationFlags)))
  );
}
