import { setTimeout as delay } from 'node:timers/promises';
import { Hono } from 'hono';
import { modalRecord, modalSchema } from '../components.js';
import type { FakeContext } from '../context.js';
import { DiscordHttpError, invalidFormBody, unknownInteraction, unknownMessage, unknownWebhook } from '../errors.js';
import { editMessage, postMessage, type PostMessage } from '../message-ops.js';
import {
  CommandType,
  MessageFlags,
  MessageType,
  type InteractionMetadataRecord,
  type InteractionRecord,
  type MessageRecord,
} from '../model.js';
import { readRequestBody } from '../multipart.js';
import { interactionCallbackSchema, messagePayloadSchema, parseBody } from '../schemas.js';
import { wireMessage } from '../wire.js';

export const CallbackType = {
  ChannelMessageWithSource: 4,
  DeferredChannelMessageWithSource: 5,
  DeferredUpdateMessage: 6,
  UpdateMessage: 7,
  Modal: 9,
} as const;

/**
 * Interaction callbacks and the interaction webhook (original response and follow-ups).
 * Neither takes an Authorization header: the interaction token is the credential.
 */
export function interactionRoutes(ctx: FakeContext): Hono {
  return new Hono()
    .post('/interactions/:interactionId/:token/callback', async (c) => {
      const slow = ctx.slowCallbacks.take();
      if (slow !== undefined) await delay(slow.delayMs);
      const interaction = pendingInteractionOr404(ctx, c.req.param('interactionId'), c.req.param('token'));
      const body = await readRequestBody(c.req.raw, ctx.attachmentSizeLimit);
      const callback = parseBody(interactionCallbackSchema, body.payload);
      if (!allowedCallbacks(interaction).includes(callback.type)) {
        throw invalidFormBody(
          ['type'],
          'INTERACTION_RESPONSE_TYPE_INVALID',
          'Invalid interaction response type for this interaction',
        );
      }
      let message: MessageRecord | null = null;
      let ephemeral = false;
      if (callback.type === CallbackType.Modal) {
        interaction.modal = modalRecord(parseBody(modalSchema, callback.data ?? {}));
      } else if (callback.type === CallbackType.DeferredUpdateMessage) {
        message = interactedMessageOr404(ctx, interaction);
      } else if (callback.type === CallbackType.UpdateMessage) {
        const data = parseBody(messagePayloadSchema, callback.data ?? {});
        message = editMessage(ctx, interactedMessageOr404(ctx, interaction), data, body.files);
      } else {
        const data = forcedEphemeral(ctx, interaction, parseBody(messagePayloadSchema, callback.data ?? {}));
        ephemeral = ((data.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
        const response = responseShape(ctx, interaction);
        if (callback.type === CallbackType.ChannelMessageWithSource) {
          message = postMessage(ctx, { ...response, payload: data, files: body.files });
        } else {
          // Discord shows a "thinking" message at once; editing @original fills it in.
          const flags = MessageFlags.Loading | (ephemeral ? MessageFlags.Ephemeral : 0);
          message = postMessage(ctx, { ...response, payload: { flags }, files: new Map() });
        }
      }
      interaction.status = 'acknowledged';
      interaction.acknowledgedAt = ctx.now();
      interaction.responseType = callback.type;
      interaction.originalMessageId = message?.id ?? null;
      interaction.ephemeral = ephemeral;
      closeSubmittedModal(ctx, interaction);
      ctx.logger.debug({ interactionId: interaction.id, type: callback.type }, 'interaction acknowledged');
      if (c.req.query('with_response') !== 'true') {
        // No body and no JSON content type: discord.js would fail parsing an empty JSON body.
        return c.body(null, 204);
      }
      return c.json({
        interaction: {
          id: interaction.id,
          type: interaction.type,
          ...(message === null
            ? {}
            : {
                response_message_id: message.id,
                response_message_loading: callback.type === CallbackType.DeferredChannelMessageWithSource,
                response_message_ephemeral: ephemeral,
              }),
        },
        resource: { type: callback.type, ...(message === null ? {} : { message: wireMessage(message, ctx.state) }) },
      });
    })
    .post('/webhooks/:applicationId/:token', async (c) => {
      const interaction = webhookInteractionOr404(ctx, c.req.param('applicationId'), c.req.param('token'));
      const body = await readRequestBody(c.req.raw, ctx.attachmentSizeLimit);
      const payload = forcedEphemeral(ctx, interaction, parseBody(messagePayloadSchema, body.payload));
      if (userInstallOnly(ctx, interaction) && interaction.followUpMessageIds.length >= USER_INSTALL_FOLLOW_UPS) {
        throw new DiscordHttpError(400, 40094, 'This interaction has hit the maximum number of follow up messages');
      }
      const message = postMessage(ctx, {
        channelId: interaction.channelId,
        author: ctx.state.botUser,
        payload,
        files: body.files,
        interaction: { ...metadata(ctx, interaction), originalResponseMessageId: interaction.originalMessageId },
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

/** Follow-ups an interaction may create when only a person's own install authorises it (June 2024). */
const USER_INSTALL_FOLLOW_UPS = 5;

/** Whether the interaction happened in a server the bot is not in: only the person's install authorises it. */
function userInstallOnly(ctx: FakeContext, interaction: InteractionRecord): boolean {
  return ctx.state.channel(interaction.channelId)?.elsewhere !== undefined;
}

/**
 * A server that withholds Use External Apps still lets its members use their own apps, but
 * every answer of an app it has not installed is ephemeral, whatever the app asked for.
 */
function forcedEphemeral<T extends { flags?: number | null | undefined }>(
  ctx: FakeContext,
  interaction: InteractionRecord,
  payload: T,
): T {
  const elsewhere = ctx.state.channel(interaction.channelId)?.elsewhere;
  if (elsewhere === undefined || elsewhere.externalApps) return payload;
  return { ...payload, flags: (payload.flags ?? 0) | MessageFlags.Ephemeral };
}

/** Which callbacks Discord takes for each kind of interaction. */
function allowedCallbacks(interaction: InteractionRecord): number[] {
  const message = [CallbackType.ChannelMessageWithSource, CallbackType.DeferredChannelMessageWithSource];
  const update = [CallbackType.DeferredUpdateMessage, CallbackType.UpdateMessage];
  switch (interaction.data.kind) {
    case 'chat-input':
    case 'message-command':
      return [...message, CallbackType.Modal];
    case 'component':
      return [...message, ...update, CallbackType.Modal];
    case 'modal-submit':
      // A modal cannot answer a modal; a modal opened from a button may update that button's message.
      return interaction.data.messageId === null ? message : [...message, ...update];
  }
}

/**
 * Where a new response message goes and what it says it answers. A message command's response
 * refers to its target (as Discord documents); a response to a button refers to the clicked
 * message, shown as a reply.
 */
function responseShape(
  ctx: FakeContext,
  interaction: InteractionRecord,
): Pick<PostMessage, 'channelId' | 'author' | 'interaction' | 'type' | 'reference'> {
  const base = { channelId: interaction.channelId, author: ctx.state.botUser, interaction: metadata(ctx, interaction) };
  const { data } = interaction;
  switch (data.kind) {
    case 'chat-input':
      return { ...base, type: MessageType.ChatInputCommand };
    case 'message-command':
      return {
        ...base,
        type: MessageType.ContextMenuCommand,
        reference: { messageId: data.targetMessageId, channelId: interaction.channelId },
      };
    case 'component':
      return {
        ...base,
        type: MessageType.Reply,
        reference: { messageId: data.messageId, channelId: interaction.channelId },
      };
    case 'modal-submit':
      return data.messageId === null
        ? { ...base, type: MessageType.Default }
        : {
            ...base,
            type: MessageType.Reply,
            reference: { messageId: data.messageId, channelId: interaction.channelId },
          };
  }
}

/** `interaction_metadata` of the messages an interaction makes. */
export function metadata(ctx: FakeContext, interaction: InteractionRecord): InteractionMetadataRecord {
  const base = { interactionId: interaction.id, type: interaction.type, userId: interaction.user.id };
  const { data } = interaction;
  switch (data.kind) {
    case 'chat-input':
      return { ...base, commandName: data.commandName, commandType: CommandType.ChatInput };
    case 'message-command':
      return {
        ...base,
        commandName: data.commandName,
        commandType: CommandType.Message,
        targetMessageId: data.targetMessageId,
      };
    case 'component':
      return { ...base, interactedMessageId: data.messageId };
    case 'modal-submit': {
      const opener = ctx.state.interaction(data.openedBy);
      return opener ? { ...base, trigger: metadata(ctx, opener) } : base;
    }
  }
}

/** The message whose component started the interaction (directly, or through the modal it opened). */
function interactedMessageOr404(ctx: FakeContext, interaction: InteractionRecord): MessageRecord {
  const { data } = interaction;
  const messageId = data.kind === 'component' || data.kind === 'modal-submit' ? data.messageId : null;
  const message = messageId === null ? undefined : ctx.state.message(interaction.channelId, messageId);
  if (!message) throw unknownMessage();
  return message;
}

/** An answered submit closes its modal on the user's screen; until then they may press Submit again. */
function closeSubmittedModal(ctx: FakeContext, interaction: InteractionRecord): void {
  if (interaction.data.kind !== 'modal-submit') return;
  const modal = ctx.state.interaction(interaction.data.openedBy)?.modal;
  if (modal && modal.closedBy === null) modal.closedBy = interaction.id;
}

/** The interaction if this is its first callback within the deadline; marks late ones expired. */
function pendingInteractionOr404(ctx: FakeContext, id: string, token: string): InteractionRecord {
  const interaction = ctx.state.interaction(id);
  if (!interaction || interaction.token !== token) throw unknownInteraction();
  const late = ctx.now() - interaction.createdAt > ctx.interactionDeadlineMs;
  if (interaction.status === 'pending' && (late || ctx.lateCallbacks.take() !== undefined)) {
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
    // A modal is the whole answer: the submit is a new interaction with its own token.
    interaction.responseType === CallbackType.Modal ||
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
