import { Hono } from 'hono';
import type { FakeContext } from '../context.js';
import { DiscordHttpError, invalidFormBody, unknownInteraction, unknownMessage, unknownWebhook } from '../errors.js';
import { editMessage, postMessage } from '../message-ops.js';
import {
  MessageFlags,
  MessageType,
  type InteractionMetadataRecord,
  type InteractionRecord,
  type MessageRecord,
} from '../model.js';
import { readRequestBody } from '../multipart.js';
import { interactionCallbackSchema, messagePayloadSchema, parseBody } from '../schemas.js';
import { wireMessage } from '../wire.js';

const CallbackType = { ChannelMessageWithSource: 4, DeferredChannelMessageWithSource: 5 } as const;

/**
 * Interaction callbacks and the interaction webhook (original response and follow-ups).
 * Neither takes an Authorization header: the interaction token is the credential.
 */
export function interactionRoutes(ctx: FakeContext): Hono {
  return new Hono()
    .post('/interactions/:interactionId/:token/callback', async (c) => {
      const interaction = pendingInteractionOr404(ctx, c.req.param('interactionId'), c.req.param('token'));
      const body = await readRequestBody(c.req.raw, ctx.attachmentSizeLimit);
      const callback = parseBody(interactionCallbackSchema, body.payload);
      const data = callback.data ?? {};
      const ephemeral = ((data.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
      const response = {
        channelId: interaction.channelId,
        author: ctx.state.botUser,
        interaction: metadata(interaction),
        type: MessageType.ChatInputCommand,
      };
      let message: MessageRecord;
      if (callback.type === CallbackType.ChannelMessageWithSource) {
        message = postMessage(ctx, { ...response, payload: data, files: body.files });
      } else if (callback.type === CallbackType.DeferredChannelMessageWithSource) {
        // Discord shows a "thinking" message at once; editing @original fills it in.
        const flags = MessageFlags.Loading | (ephemeral ? MessageFlags.Ephemeral : 0);
        message = postMessage(ctx, { ...response, payload: { flags }, files: new Map() });
      } else {
        throw invalidFormBody(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', 'Invalid interaction response type for this interaction');
      }
      interaction.status = 'acknowledged';
      interaction.acknowledgedAt = ctx.now();
      interaction.responseType = callback.type;
      interaction.originalMessageId = message.id;
      interaction.ephemeral = ephemeral;
      ctx.logger.debug({ interactionId: interaction.id, type: callback.type }, 'interaction acknowledged');
      if (c.req.query('with_response') !== 'true') {
        // No body and no JSON content type: discord.js would fail parsing an empty JSON body.
        return c.body(null, 204);
      }
      return c.json({
        interaction: {
          id: interaction.id,
          type: 2,
          response_message_id: message.id,
          response_message_loading: callback.type === CallbackType.DeferredChannelMessageWithSource,
          response_message_ephemeral: ephemeral,
        },
        resource: { type: callback.type, message: wireMessage(message, ctx.state) },
      });
    })
    .post('/webhooks/:applicationId/:token', async (c) => {
      const interaction = webhookInteractionOr404(ctx, c.req.param('applicationId'), c.req.param('token'));
      const body = await readRequestBody(c.req.raw, ctx.attachmentSizeLimit);
      const payload = parseBody(messagePayloadSchema, body.payload);
      const message = postMessage(ctx, {
        channelId: interaction.channelId,
        author: ctx.state.botUser,
        payload,
        files: body.files,
        interaction: metadata(interaction),
      });
      interaction.followUpMessageIds.push(message.id);
      return c.req.query('wait') === 'true' ? c.json(wireMessage(message, ctx.state)) : c.body(null, 204);
    })
    .get('/webhooks/:applicationId/:token/messages/:messageId', (c) => {
      const interaction = webhookInteractionOr404(ctx, c.req.param('applicationId'), c.req.param('token'));
      return c.json(wireMessage(webhookMessageOr404(ctx, interaction, c.req.param('messageId')), ctx.state));
    })
    .patch('/webhooks/:applicationId/:token/messages/:messageId', async (c) => {
      const interaction = webhookInteractionOr404(ctx, c.req.param('applicationId'), c.req.param('token'));
      const message = webhookMessageOr404(ctx, interaction, c.req.param('messageId'));
      const body = await readRequestBody(c.req.raw, ctx.attachmentSizeLimit);
      const payload = parseBody(messagePayloadSchema, body.payload);
      return c.json(wireMessage(editMessage(ctx, message, payload, body.files), ctx.state));
    })
    .delete('/webhooks/:applicationId/:token/messages/:messageId', (c) => {
      const interaction = webhookInteractionOr404(ctx, c.req.param('applicationId'), c.req.param('token'));
      const message = webhookMessageOr404(ctx, interaction, c.req.param('messageId'));
      ctx.state.deleteMessage(message);
      ctx.events.messageDelete(message);
      return c.body(null, 204);
    });
}

function metadata(interaction: InteractionRecord): InteractionMetadataRecord {
  return { interactionId: interaction.id, commandName: interaction.commandName, userId: interaction.user.id };
}

/** The interaction if this is its first callback within the deadline; marks late ones expired. */
function pendingInteractionOr404(ctx: FakeContext, id: string, token: string): InteractionRecord {
  const interaction = ctx.state.interaction(id);
  if (!interaction || interaction.token !== token) throw unknownInteraction();
  if (interaction.status === 'pending' && ctx.now() - interaction.createdAt > ctx.interactionDeadlineMs) {
    interaction.status = 'expired';
  }
  if (interaction.status === 'expired') {
    ctx.logger.info({ interactionId: id }, 'interaction callback after the deadline: 10062');
    throw unknownInteraction();
  }
  if (interaction.status === 'acknowledged') {
    throw new DiscordHttpError(400, 40060, 'Interaction has already been acknowledged.');
  }
  return interaction;
}

/** Interaction webhooks work for acknowledged interactions while the token lives. */
function webhookInteractionOr404(ctx: FakeContext, applicationId: string, token: string): InteractionRecord {
  const interaction = ctx.state.interactionByToken(token);
  if (
    applicationId !== ctx.applicationId ||
    !interaction ||
    interaction.status !== 'acknowledged' ||
    ctx.now() - interaction.createdAt > ctx.interactionTokenTtlMs
  ) {
    throw unknownWebhook();
  }
  return interaction;
}

function webhookMessageOr404(ctx: FakeContext, interaction: InteractionRecord, messageId: string): MessageRecord {
  const id = messageId === '@original' ? interaction.originalMessageId : messageId;
  const own = id !== null && (id === interaction.originalMessageId || interaction.followUpMessageIds.includes(id));
  const message = own ? ctx.state.message(interaction.channelId, id) : undefined;
  if (!message) throw unknownMessage();
  return message;
}
