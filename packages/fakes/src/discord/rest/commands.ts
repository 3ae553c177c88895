import { Hono } from 'hono';
import { z } from 'zod';
import type { FakeContext } from '../context.js';
import { DiscordHttpError, missingAccess } from '../errors.js';
import type { CommandRecord } from '../model.js';
import { readRequestBody } from '../multipart.js';
import { commandSchema, parseBody, type CommandPayload } from '../schemas.js';

const bulkSchema = z.array(commandSchema).max(100);

/** Global and guild application commands: bulk overwrite, create/update one, list, delete. */
export function commandRoutes(ctx: FakeContext): Hono {
  const app = new Hono();
  for (const scope of ['global', 'guild'] as const) {
    const base =
      scope === 'global'
        ? '/applications/:applicationId/commands'
        : '/applications/:applicationId/guilds/:guildId/commands';
    const listFor = (applicationId: string, guildId: string | undefined): CommandRecord[] => {
      if (applicationId !== ctx.applicationId) throw missingAccess();
      if (scope === 'global') return ctx.state.globalCommands;
      if (guildId !== ctx.state.guild.id) throw new DiscordHttpError(404, 10004, 'Unknown Guild');
      return ctx.state.guildCommands;
    };
    app
      .get(base, (c) => c.json(listFor(c.req.param('applicationId'), c.req.param('guildId'))))
      .put(base, async (c) => {
        const list = listFor(c.req.param('applicationId'), c.req.param('guildId'));
        const payloads = parseBody(bulkSchema, (await readRequestBody(c.req.raw, 0)).payload);
        const next = payloads.map((payload) => toRecord(ctx, payload, findSame(list, payload)?.id, scope));
        list.splice(0, list.length, ...next);
        return c.json(next);
      })
      .post(base, async (c) => {
        const list = listFor(c.req.param('applicationId'), c.req.param('guildId'));
        const payload = parseBody(commandSchema, (await readRequestBody(c.req.raw, 0)).payload);
        const existing = findSame(list, payload);
        const record = toRecord(ctx, payload, existing?.id, scope);
        if (existing) list.splice(list.indexOf(existing), 1, record);
        else list.push(record);
        return c.json(record, existing ? 200 : 201);
      })
      .delete(`${base}/:commandId`, (c) => {
        const list = listFor(c.req.param('applicationId'), c.req.param('guildId'));
        const index = list.findIndex((command) => command.id === c.req.param('commandId'));
        if (index < 0) throw new DiscordHttpError(404, 10063, 'Unknown application command');
        list.splice(index, 1);
        return c.body(null, 204);
      });
  }
  return app;
}

/** Discord keeps a command's ID when one with the same name and type is overwritten. */
function findSame(list: readonly CommandRecord[], payload: CommandPayload): CommandRecord | undefined {
  return list.find((command) => command.name === payload.name && command.type === payload.type);
}

function toRecord(
  ctx: FakeContext,
  payload: CommandPayload,
  id: string | undefined,
  scope: 'global' | 'guild',
): CommandRecord {
  return {
    default_member_permissions: null,
    nsfw: false,
    ...payload,
    id: id ?? ctx.ids(),
    application_id: ctx.applicationId,
    ...(scope === 'guild' ? { guild_id: ctx.state.guild.id } : {}),
    version: ctx.ids(),
  };
}
