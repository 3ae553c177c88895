import { copy } from '@genbot/core/copy';
import type { Logger } from '@genbot/core/log';
import {
  formSettings,
  type GenbotContext,
  mayChange,
  parseGenbotText,
  resolveSettings,
  runGenbot,
  type SettingLevel,
  type SettingsFormValues,
  type SettingsPlace,
  settingsForm,
  settingText,
  submitSettingsForm,
} from '@genbot/core/settings';
import type { App, webApi } from '@slack/bolt';
import { answerPrivately } from '../ephemeral.js';
import { toMrkdwn } from '../mrkdwn.js';
import { isDirectMessageChannel } from '../parse-direct-message.js';
import { parseHomeSettingsPress, parseSettingsLevelSwitch, parseSettingsSubmission } from '../parse-settings-form.js';
import type { SettingsFormPlace, SettingsFormSeal } from '../settings-form-seal.js';
import {
  HOME_SETTINGS_ACTION,
  LEVEL_ACTION,
  SETTINGS_FORM_CALLBACK,
  settingsModal,
  settingsNoticeModal,
} from '../settings-modal.js';
import type { WorkspaceRights } from '../settings-rights.js';
import { slackCall } from '../slack-errors.js';
import type { ListenerContext, SlackJobs } from './context.js';

export interface GenbotCommandOptions {
  /** Who may change what, from Slack and ADMIN_USER_IDS. */
  rights: WorkspaceRights;
  /** Signs the forms' metadata with a secret every replica holds. */
  seal: SettingsFormSeal;
}

/** A DM has no channel settings, only its workspace's. */
function placeOf(workspaceId: string, channelId: string): SettingsPlace {
  return { platform: 'slack', workspaceId, channelId, dm: isDirectMessageChannel(channelId) };
}

/** The level the form opens on: the channel's, or in a DM (no channel settings) the workspace's. */
const formLevel = (place: SettingsPlace): SettingLevel => (place.dm === true ? 'workspace' : 'channel');

/**
 * A `/genbot` answer as mrkdwn, its people (`<@U…>`, who made each change)
 * kept as Slack mentions: `toMrkdwn` escapes every `<`. The answer is
 * ephemeral, so a mention notifies nobody.
 */
const answerMrkdwn = (answer: string): string => toMrkdwn(answer).replace(/&lt;@([UW][A-Z0-9]+)&gt;/g, '<@$1>');

/** Slack shows a field's error as plain text: the answers' code marks would show as they are. */
const plainError = (answer: string): string => answer.replaceAll('`', '');

/**
 * `/genbot`: `show`, `set NAME VALUE [--workspace]` and `reset NAME
 * [--workspace]` answered privately as the command's response; with no text,
 * for those who may change settings, the settings form (a modal on the
 * command's trigger_id); everyone else gets the `show` answer. Rights come
 * from Slack (workspace admins and owners) and ADMIN_USER_IDS, checked on
 * every call and again when a form is switched or submitted. The form's
 * place travels sealed in its metadata, so a submission for a place it was
 * not opened for, or by someone else, changes nothing.
 */
export function registerGenbotCommand(
  app: App,
  listening: ListenerContext,
  jobs: SlackJobs,
  options: GenbotCommandOptions,
): void {
  const { logger } = listening;
  const { rights, seal } = options;
  const { settings } = jobs;

  const genbotContext = async (
    client: webApi.WebClient,
    place: SettingsPlace,
    userId: string,
  ): Promise<GenbotContext> => {
    return { settings, place, userId, rights: await rights(client, place.workspaceId ?? '', userId) };
  };

  const formView = async (genbot: GenbotContext, level: SettingLevel) => {
    const { place, rights, userId } = genbot;
    const [view, inherited] = await Promise.all([
      settings.view(place, level),
      level === 'channel' ? settings.view(place, 'workspace') : resolveSettings({}, settings.operator),
    ]);
    const sealed: SettingsFormPlace = {
      level,
      workspaceId: place.workspaceId ?? '',
      channelId: place.channelId,
      dm: place.dm === true,
      userId,
    };
    return settingsModal({
      level,
      channelId: place.channelId,
      fields: settingsForm(view, level, settings.operator),
      inherited,
      switchable: place.dm !== true && rights.channel && rights.workspace,
      metadata: seal.seal(sealed),
    });
  };

  /** The sealed place of a form, if it is one this app opened for this person in this workspace. */
  const formPlace = (
    metadata: string,
    userId: string,
    workspaceId: string | undefined,
    log: Logger,
  ): SettingsFormPlace | undefined => {
    const form = seal.open(metadata);
    if (form !== undefined && form.userId === userId && form.workspaceId === workspaceId) return form;
    log.warn({ user: userId, workspaceId }, 'settings form not sealed by this app for this person; refused');
    return undefined;
  };

  app.command('/genbot', async ({ command, ack, client, context: origin }) => {
    const place = placeOf(command.team_id, command.channel_id);
    const log = logger.child({ channel: command.channel_id, action: '/genbot' });
    const request = parseGenbotText(command.text);
    const genbot = await genbotContext(client, place, command.user_id);
    const level = formLevel(place);
    if (request.kind !== 'form' || !mayChange(genbot.rights, level)) {
      // Those who may not change settings see them as `show` says them.
      const answer = await runGenbot(request.kind === 'form' ? { kind: 'show' } : request, genbot);
      log.info({ request: request.kind }, '/genbot answered');
      await ack({ response_type: 'ephemeral', text: answerMrkdwn(answer) });
      return;
    }
    await ack();
    try {
      const view = await formView(genbot, level);
      await slackCall('views.open', () => client.views.open({ trigger_id: command.trigger_id, view }));
      log.info({ level }, 'settings form opened');
    } catch (error) {
      log.warn({ err: error }, 'could not open the settings form');
      const where = { channel: command.channel_id, user: command.user_id };
      await answerPrivately(await listening.at(origin), where, copy.settingsModal.notOpened, log);
    }
  });

  app.action(HOME_SETTINGS_ACTION, async ({ ack, body, client }) => {
    await ack();
    const parsed = parseHomeSettingsPress(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'Home tab settings press in an unexpected shape');
      return;
    }
    const press = parsed.value;
    const log = logger.child({ user: press.userId, action: 'settings from the Home tab' });
    // The person's DM with the app: no channel settings, so the form is the workspace's.
    const genbot = await genbotContext(client, placeOf(press.workspaceId, press.channel), press.userId);
    const view = mayChange(genbot.rights, 'workspace')
      ? await formView(genbot, 'workspace')
      : settingsNoticeModal(copy.settingsNotAllowed('workspace', 'slack'));
    await slackCall('views.open', () => client.views.open({ trigger_id: press.triggerId, view })).catch(
      (error: unknown) => log.warn({ err: error }, 'could not open the settings form from the Home tab'),
    );
  });

  app.action(LEVEL_ACTION, async ({ ack, body, client }) => {
    await ack();
    const parsed = parseSettingsLevelSwitch(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'settings level switch in an unexpected shape');
      return;
    }
    const switched = parsed.value;
    const log = logger.child({ action: 'settings level' });
    const form = formPlace(switched.metadata, switched.userId, switched.workspaceId, log);
    let view = settingsNoticeModal(copy.settingsModal.invalid);
    if (form !== undefined) {
      const place = placeOf(form.workspaceId, form.channelId);
      const genbot = await genbotContext(client, place, switched.userId);
      const allowed = mayChange(genbot.rights, switched.level) && !(switched.level === 'channel' && place.dm === true);
      view = allowed
        ? await formView(genbot, switched.level)
        : settingsNoticeModal(copy.settingsNotAllowed(switched.level, 'slack'));
    }
    await slackCall('views.update', () =>
      client.views.update({ view_id: switched.viewId, hash: switched.hash, view }),
    ).catch((error: unknown) => log.warn({ err: error }, 'could not switch the settings form'));
  });

  app.view(SETTINGS_FORM_CALLBACK, async ({ ack, body, client, context: origin }) => {
    const parsed = parseSettingsSubmission(body);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem }, 'settings form submission in an unexpected shape');
      await ack({ response_action: 'update', view: settingsNoticeModal(copy.settingsModal.invalid) });
      return;
    }
    const submitted = parsed.value;
    const log = logger.child({ action: 'settings form' });
    const form = formPlace(submitted.metadata, submitted.userId, submitted.workspaceId, log);
    if (form === undefined) {
      await ack({ response_action: 'update', view: settingsNoticeModal(copy.settingsModal.invalid) });
      return;
    }
    const place = placeOf(form.workspaceId, form.channelId);
    const genbot = await genbotContext(client, place, submitted.userId);
    const outcome = await submitSettingsForm(await keptValues(submitted.values, form.level, place), form.level, genbot);
    if (!outcome.ok) {
      if ('errors' in outcome) {
        const errors = Object.fromEntries(
          Object.entries(outcome.errors).map(([name, error]) => [name, plainError(error)]),
        );
        await ack({ response_action: 'errors', errors });
        return;
      }
      log.info({ level: form.level }, 'settings form refused');
      await ack({ response_action: 'update', view: settingsNoticeModal(outcome.answer) });
      return;
    }
    await ack();
    log.info({ level: form.level, channel: form.channelId }, 'settings form saved');
    const where = { channel: form.channelId, user: submitted.userId };
    await answerPrivately(await listening.at(origin), where, outcome.answer, log);
  });

  /**
   * The form's values with every setting it did not hold as an input (a
   * system prompt longer than Slack's inputs) kept at its own value, so
   * submitting never resets what the form could not show.
   */
  async function keptValues(
    values: SettingsFormValues,
    level: SettingLevel,
    place: SettingsPlace,
  ): Promise<SettingsFormValues> {
    const missing = formSettings(level).filter((name) => values[name] === undefined);
    if (missing.length === 0) return values;
    const view = await settings.view(place, level);
    const kept: SettingsFormValues = { ...values };
    for (const name of missing) kept[name] = view.from[name] === level ? settingText(view.values[name]) : '';
    return kept;
  }
}
