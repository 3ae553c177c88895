import type { DiscordFake, SlackFake } from '@genbot/fakes';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import {
  decodeAttachment,
  discordCommandInput,
  discordMessageCommandInput,
  discordMessageInput,
  discordPressInput,
  formInput,
  slackCommandInput,
  slackHomePressInput,
  slackMessageInput,
  slackOpenAppInput,
  slackPressInput,
  slackViewActionInput,
  withMentions,
} from './actions.js';
import { homeBlocks, homeButtons } from './direct-messages.js';
import { commandFromText } from './discord-command-text.js';
import { asDiscordUser, asSlackUser, BadRequest } from './errors.js';
import { personOf } from './people.js';
import { LIMIT_WORDS } from './limits.js';
import { discordUnknownCommand, slackCommandTimedOut, slackUnknownCommand } from './platform-answers.js';
import { discordButtons, slackButtons, type PlaygroundSnapshot } from './snapshot.js';

export interface RouteDeps {
  slack: SlackFake;
  discord: DiscordFake;
  slackChannel: string;
  discordChannel: string;
  /** The slash commands the Slack app declares; Slack answers any other itself. */
  slackCommands: readonly string[];
  state(): PlaygroundSnapshot;
  /** True once shutdown began: actions are refused from then on. */
  closing(): boolean;
  /** Called after each action, so that the pages see it at once. */
  changed(): void;
}

/** The JSON API the page uses: the state, the files, and acting as a person in either channel. */
export function serveApi(app: Hono, deps: RouteDeps): void {
  const { slack, discord, slackChannel, discordChannel } = deps;
  const refused = (c: Context): Response | undefined =>
    deps.closing() ? c.json({ error: 'The playground is shutting down: no new messages.' }, 503) : undefined;
  const discordUserOf = (name: string | undefined): string => personOf(name).name;
  const slackUserOf = (name: string | undefined): string => personOf(name).slackId;
  const slackPlace = (dm: boolean | undefined, user: string | undefined): string =>
    dm === true ? slack.openDm(slackUserOf(user)) : slackChannel;
  const discordTarget = (channelId: string | undefined, dm?: boolean, user?: string): string => {
    if (dm === true) return discord.dmChannelId(discordUserOf(user));
    if (channelId === undefined || channelId === discordChannel) return discordChannel;
    const thread = discord.state.channel(channelId);
    if (thread?.parentId !== discordChannel) throw new BadRequest(LIMIT_WORDS.place);
    return thread.id;
  };

  app.get('/api/state', (c) => c.json(deps.state()));

  app.get('/api/slack/files/:id', (c) => {
    const file = slack.workspace.files.get(c.req.param('id'));
    if (!file?.bytes || file.channel === undefined) return c.json({ error: 'no such file' }, 404);
    return c.body(
      new Uint8Array(file.bytes),
      200,
      fileHeaders(file.name, file.mimetype, c.req.query('download') !== undefined),
    );
  });
  app.get('/api/discord/attachments/:channelId/:attachmentId', (c) => {
    const attachment = discord.state.findAttachment(c.req.param('channelId'), c.req.param('attachmentId'));
    if (!attachment) return c.json({ error: 'no such attachment' }, 404);
    return c.body(
      new Uint8Array(attachment.bytes),
      200,
      fileHeaders(attachment.filename, attachment.contentType, c.req.query('download') !== undefined),
    );
  });

  app.post('/api/slack/messages', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = slackMessageInput.parse(await c.req.json());
    const botName = slack.workspace.users.get(slack.identity.botUserId)?.name ?? 'genbot';
    const text = withMentions(input.text, botName, `<@${slack.identity.botUserId}>`);
    if (text.trim() === '' && input.file === undefined) throw new BadRequest(LIMIT_WORDS.empty);
    const files =
      input.file === undefined
        ? undefined
        : [
            {
              name: input.file.name,
              bytes: decodeAttachment(input.file),
              ...(input.file.mimetype !== undefined && input.file.mimetype !== '' && { mimetype: input.file.mimetype }),
            },
          ];
    const posted = await asSlackUser(() =>
      slack.userSays({
        user: slackUserOf(input.user),
        channel: slackPlace(input.dm, input.user),
        text,
        ...(input.threadTs !== undefined && { threadTs: input.threadTs }),
        ...(files !== undefined && { files }),
      }),
    );
    deps.changed();
    return c.json({ ts: posted.ts, channel: posted.channel, threadTs: posted.threadTs ?? null });
  });

  app.post('/api/slack/commands', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = slackCommandInput.parse(await c.req.json());
    const command = input.command.toLowerCase();
    if (!deps.slackCommands.includes(command)) throw slackUnknownCommand(input.command);
    const run = await asSlackUser(() =>
      slack.userRunsCommand({
        user: slackUserOf(input.user),
        channel: slackPlace(input.dm, input.user),
        command,
        text: input.text,
      }),
    );
    deps.changed();
    if (!run.delivery.attempts.some((attempt) => attempt.acked)) throw slackCommandTimedOut(command);
    return c.json({ acknowledged: true });
  });

  // A press on a result's button, delivered by the fake as Slack would: a signed block_actions.
  app.post('/api/slack/press', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = slackPressInput.parse(await c.req.json());
    const channel = slackPlace(input.dm, input.user);
    const message = slack.workspace.message(channel, input.ts);
    if (message === undefined || !slackButtons(message.blocks).some((button) => button.id === input.actionId))
      throw new BadRequest(LIMIT_WORDS.place);
    await asSlackUser(() =>
      slack.userPresses({
        user: slackUserOf(input.user),
        channel,
        ts: input.ts,
        actionId: input.actionId,
      }),
    );
    deps.changed();
    return c.json({ pressed: true });
  });

  // Opening the App Home on a tab: `app_home_opened`, to which the bot answers with prompts or a Home tab.
  app.post('/api/slack/app', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = slackOpenAppInput.parse(await c.req.json());
    const user = slackUserOf(input.user);
    await asSlackUser(() => slack.userOpensApp({ user, tab: input.tab }));
    deps.changed();
    return c.json({ channel: slack.openDm(user) });
  });

  // A press on a button of the person's Home tab (the admin's Workspace settings): a signed block_actions from the view.
  app.post('/api/slack/home-press', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = slackHomePressInput.parse(await c.req.json());
    const user = slackUserOf(input.user);
    const tab = slack.aiApps.homeTab(user);
    if (tab === undefined || !homeButtons(homeBlocks(tab.view)).some((button) => button.id === input.actionId))
      throw new BadRequest(LIMIT_WORDS.homeButton);
    await asSlackUser(() => slack.userPressesInHomeTab({ user, actionId: input.actionId }));
    deps.changed();
    return c.json({ pressed: true });
  });

  // A modal's Submit: a signed view_submission; the app's `response_action: errors` comes back by field.
  app.post('/api/slack/forms', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = formInput.parse(await c.req.json());
    const shown = slack.views.find((view) => view.id === input.id && view.open);
    if (shown === undefined) throw new BadRequest(LIMIT_WORDS.formGone);
    const answer = await asSlackUser(() =>
      slack.userSubmitsView({
        user: shown.user,
        viewId: shown.id,
        values: Object.fromEntries(
          Object.entries(input.values).map(([blockId, text]) => [blockId, { [actionIdOf(shown.view, blockId)]: text }]),
        ),
      }),
    );
    deps.changed();
    return c.json({ closed: answer.closed, errors: answer.errors ?? {} });
  });

  // A choice in a modal's actions block (the settings form's level): a signed block_actions from the view.
  app.post('/api/slack/view-actions', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = slackViewActionInput.parse(await c.req.json());
    const shown = slack.views.find((view) => view.id === input.id && view.open);
    if (shown === undefined || shown.user !== slackUserOf(input.user)) throw new BadRequest(LIMIT_WORDS.formGone);
    await asSlackUser(() =>
      slack.userActsInView({ user: shown.user, viewId: shown.id, actionId: input.actionId, value: input.value }),
    );
    deps.changed();
    return c.json({ acted: true });
  });

  // A press on a button: INTERACTION_CREATE of type 3 through the fake's gateway.
  app.post('/api/discord/press', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = discordPressInput.parse(await c.req.json());
    const channelId = discordTarget(input.channelId, input.dm, input.user);
    const message = discord.state.message(channelId, input.messageId);
    if (message === undefined || !discordButtons(message.components).some((button) => button.id === input.customId))
      throw new BadRequest(LIMIT_WORDS.place);
    const interaction = asDiscordUser(() =>
      discord.userClicks({
        user: discordUserOf(input.user),
        channelId,
        messageId: input.messageId,
        customId: input.customId,
      }),
    );
    deps.changed();
    return c.json({ id: interaction.id });
  });

  // Apps -> a message command (Edit image) on a message.
  app.post('/api/discord/message-commands', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = discordMessageCommandInput.parse(await c.req.json());
    const channelId = discordTarget(input.channelId, input.dm, input.user);
    if (discord.state.message(channelId, input.messageId) === undefined) throw new BadRequest(LIMIT_WORDS.place);
    const interaction = asDiscordUser(() =>
      discord.userRunsMessageCommand({
        user: discordUserOf(input.user),
        channelId,
        messageId: input.messageId,
        name: input.name,
      }),
    );
    deps.changed();
    return c.json({ id: interaction.id });
  });

  // A modal's Submit: MODAL_SUBMIT, a new interaction; Discord's client checks required fields first.
  app.post('/api/discord/forms', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = formInput.parse(await c.req.json());
    const modal = discord.state.interaction(input.id)?.modal;
    if (modal == null || modal.closedBy !== null) throw new BadRequest(LIMIT_WORDS.formGone);
    for (const field of modal.inputs)
      if (field.required && (input.values[field.customId] ?? '').trim() === '')
        throw new BadRequest(LIMIT_WORDS.formEmpty);
    const interaction = asDiscordUser(() =>
      discord.userSubmitsModal({ interactionId: input.id, values: input.values }),
    );
    deps.changed();
    return c.json({ id: interaction.id });
  });

  app.post('/api/discord/messages', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = discordMessageInput.parse(await c.req.json());
    const channelId = discordTarget(input.channelId, input.dm, input.user);
    const content = withMentions(input.content, discord.state.botUser.username, `<@${discord.state.botUser.id}>`);
    if (content.trim() === '' && input.file === undefined) throw new BadRequest(LIMIT_WORDS.empty);
    const attachments =
      input.file === undefined
        ? undefined
        : [
            {
              filename: input.file.name,
              bytes: decodeAttachment(input.file),
              ...(input.file.mimetype !== undefined &&
                input.file.mimetype !== '' && { contentType: input.file.mimetype }),
            },
          ];
    const message = asDiscordUser(() =>
      discord.userSays({
        user: discordUserOf(input.user),
        channelId,
        content,
        ...(input.replyTo !== undefined && { replyTo: input.replyTo }),
        ...(attachments !== undefined && { attachments }),
      }),
    );
    deps.changed();
    return c.json({ id: message.id, channelId });
  });

  app.post('/api/discord/commands', async (c) => {
    const refusal = refused(c);
    if (refusal) return refusal;
    const input = discordCommandInput.parse(await c.req.json());
    const channelId = discordTarget(input.channelId, input.dm, input.user);
    // In a DM with the bot Discord offers only global commands that allow that context.
    const offered =
      input.dm === true
        ? discord.state.globalCommands.filter((command) => availableInBotDm.safeParse(command).success)
        : [...discord.state.guildCommands, ...discord.state.globalCommands];
    const chatInput = offered.filter((command) => command.type === 1);
    const registered = [...new Set(chatInput.map((command) => command.name))];
    const command = chatInput.find((each) => each.name === input.name);
    if (command === undefined) throw discordUnknownCommand(input.name, registered, input.dm === true ? 'dm' : 'server');
    // What Discord's client would have sent for the words typed after the command: a subcommand and its options.
    const typed = input.text === undefined ? { options: input.options } : commandFromText(command, input.text);
    const interaction = asDiscordUser(() =>
      discord.userRunsCommand({ user: discordUserOf(input.user), channelId, name: input.name, ...typed }),
    );
    deps.changed();
    return c.json({ id: interaction.id });
  });
}

/** Discord's interaction context for a DM with the bot. */
const BOT_DM_CONTEXT = 1;
const availableInBotDm = z.looseObject({
  dm_permission: z.literal(true).optional(),
  contexts: z
    .array(z.number())
    .refine((contexts) => contexts.includes(BOT_DM_CONTEXT))
    .optional(),
});

const inputBlock = z.looseObject({ block_id: z.string(), element: z.looseObject({ action_id: z.string() }) });
const modalBlocks = z.looseObject({ blocks: z.array(z.unknown()) });

/** The action_id of a modal's input block, which view_submission keys its value by. */
function actionIdOf(view: unknown, blockId: string): string {
  const blocks = modalBlocks.safeParse(view);
  for (const block of blocks.success ? blocks.data.blocks : []) {
    const input = inputBlock.safeParse(block);
    if (input.success && input.data.block_id === blockId) return input.data.element.action_id;
  }
  throw new BadRequest(LIMIT_WORDS.formGone);
}

/** Images the browser may show inline; anything else only as a download, never sniffed. */
function fileHeaders(name: string, type: string, download: boolean): Record<string, string> {
  const safeType = /^image\/(png|jpeg|webp|gif)$/.test(type) ? type : 'application/octet-stream';
  return {
    'content-type': safeType,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-disposition': `${download || safeType === 'application/octet-stream' ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(name)}`,
  };
}
