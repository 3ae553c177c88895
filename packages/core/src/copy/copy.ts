import type { ErrorDescription } from '../genai/describe-error.js';
import { IMAGE_FORMATS_IN_WORDS } from '../genai/images.js';
import { ASPECT_RATIOS } from '../genai/types.js';
import type { JobRejectionReason } from '../scheduling/job-rejected-error.js';
import type { UnavailableReason } from '../files/attachment-unavailable.js';
import type { LeftOutFile } from '../files/model-content.js';
import type { JsonValue } from '../store/json.js';
import type { Platform } from '../surface/platform.js';

/**
 * Every sentence the bot says on its own, in standard Markdown (each surface
 * formats it). Short and human: what happened and whether trying again may
 * help; never a stack trace, an identifier or a secret.
 */

const QUOTE_CHARS = 200;

/** Why a return from Slack's install page installed nothing. */
export type InstallRefusal = 'missing' | 'forged' | 'expired' | 'used' | 'other-browser' | 'cancelled' | 'failed';

const START_AGAIN = 'Start again from the install link.';
const INSTALL_REFUSALS: Readonly<Record<InstallRefusal, string>> = {
  missing: `The way back from Slack carried no state, so nothing was installed. ${START_AGAIN}`,
  forged: `The way back from Slack carried a state that genbot did not make, so nothing was installed. ${START_AGAIN}`,
  expired: `The install took longer than 10 minutes, so nothing was installed. ${START_AGAIN}`,
  used: `This way back from Slack was already used once, so nothing was installed again. ${START_AGAIN}`,
  'other-browser': `The install was started in another browser, so nothing was installed. ${START_AGAIN}`,
  cancelled: 'The install was cancelled in Slack: nothing was installed.',
  failed: 'Slack did not finish the install, so nothing was installed. Trying again may help.',
};

/** A user's text shown back to them, shortened and on one line. */
export function quote(text: string, max = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat}”`;
}

function withRetryHint(description: ErrorDescription): string {
  const hinted = /try again/i.test(description.summary);
  return description.retryable && !hinted ? `${description.summary} Trying again may help.` : description.summary;
}

/** Version numbers as a result names them: `v3`, or `v3, v4`. */
function versionList(numbers: number | readonly number[]): string {
  return (typeof numbers === 'number' ? [numbers] : numbers).map((number) => `v${number}`).join(', ');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** What came out of a job's uploads: `limitBytes` is the channel's upload limit, needed once something was over it. */
export interface UploadCounts {
  uploaded: number;
  tooLarge: number;
  limitBytes?: number | undefined;
}

function channelTakes(limitBytes: number | undefined): string {
  return limitBytes === undefined ? 'this channel takes' : `this channel takes (${mebibytes(limitBytes)})`;
}

function tooLargeNote(result: UploadCounts): string {
  const { tooLarge } = result;
  if (tooLarge === 0) return '';
  return ` ${plural(tooLarge, 'more')} ${tooLarge === 1 ? 'was' : 'were'} larger than ${channelTakes(result.limitBytes)}: a smaller aspect ratio may fit.`;
}

/** Every image of a job over the channel's upload limit: which request, the limit, and what may help. */
function allTooLarge(what: string, asked: string, result: UploadCounts): string {
  const subject = result.tooLarge === 1 ? `The ${what}` : `All ${result.tooLarge} ${what}s`;
  return `⚠️ ${subject} for ${quote(asked)} ${result.tooLarge === 1 ? 'was' : 'were'} larger than ${channelTakes(result.limitBytes)}. A smaller aspect ratio may fit.`;
}

/** Bytes as `14.0 MiB`. */
function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Bytes as `180 KiB` below a mebibyte, else as `14.0 MiB`. */
function fileSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : mebibytes(bytes);
}

/** A wait in words: `about 20 seconds`, `about a minute`, `about 3 minutes`. */
function about(seconds: number): string {
  if (seconds < 60) return `about ${plural(Math.max(1, Math.round(seconds)), 'second')}`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return minutes === 1 ? 'about a minute' : `about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hours`;
}

/** `1 image`, `3 images`, `12,000 chat tokens`. */
const WORKSPACE_WORDS: Readonly<Record<Platform, string>> = { slack: 'workspace', discord: 'server' };
const ADMIN_WORDS: Readonly<Record<Platform, { channel: string; workspace: string }>> = {
  slack: { channel: 'workspace admins and owners', workspace: 'workspace admins and owners' },
  discord: { channel: 'members with Manage Channels or Manage Server', workspace: 'members with Manage Server' },
};

/** A setting's change as the answers tell it. */
export interface SettingChangeWords {
  name: string;
  level: 'channel' | 'workspace';
  platform: Platform;
  previous: JsonValue | undefined;
  value: JsonValue | undefined;
  /** Where the value comes from after a reset. */
  inheritsFrom?: 'channel' | 'workspace' | 'default';
}

export interface SettingsShown {
  platform: Platform;
  dm: boolean;
  values: readonly { name: string; value: JsonValue | undefined; from: 'channel' | 'workspace' | 'default' }[];
  changes: readonly (SettingChangeWords & { by: string; at: Date })[];
  mayChange: boolean;
}

function settingValue(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'not set';
  if (typeof value === 'boolean') return value ? '`on`' : '`off`';
  if (typeof value === 'string') return `\`${value.length > 80 ? `${value.slice(0, 79)}…` : value}\``;
  return `\`${JSON.stringify(value)}\``;
}

function levelWords(change: { level: 'channel' | 'workspace'; platform: Platform }): string {
  return change.level === 'channel' ? 'in this channel' : `for the whole ${WORKSPACE_WORDS[change.platform]}`;
}

/** How the settings form names each setting (its `/genbot set` name follows in brackets). */
const SETTING_LABELS: Readonly<Record<string, string>> = {
  chat_model: 'Chat model (chat_model)',
  image_model: 'Image model (image_model)',
  system_prompt: 'System prompt (system_prompt)',
  aspect_ratio: 'Aspect ratio of /imagine (aspect_ratio)',
  images: 'Images per /imagine (images)',
  enabled: 'genbot on or off (enabled)',
  budget_images_per_day: 'Images per day, everyone together (budget_images_per_day)',
  budget_chat_tokens_per_day: 'Chat tokens per day, everyone together (budget_chat_tokens_per_day)',
};

/** What applies when a setting is set nowhere and the operator gave it no value. */
const NOTHING_SET: Readonly<Record<string, string>> = {
  system_prompt: 'the built-in prompt',
  aspect_ratio: "the model's own",
  budget_images_per_day: 'no limit',
  budget_chat_tokens_per_day: 'no limit',
};

/** Where an effective value comes from, in words. */
export function sourceWords(from: 'channel' | 'workspace' | 'default', platform: Platform): string {
  if (from === 'channel') return 'set for this channel';
  if (from === 'workspace') return `from the ${WORKSPACE_WORDS[platform]}`;
  return 'default';
}

function amount(quota: 'images' | 'chat tokens', count: number): string {
  const number = count.toLocaleString('en-US');
  if (quota === 'images') return `${number} image${count === 1 ? '' : 's'}`;
  return `${number} chat token${count === 1 ? '' : 's'}`;
}

/** Counts the `/usage` answer shows. */
export interface UsageCounts {
  images: number;
  chatTokens: number;
}

export interface UsageReport {
  today: UsageCounts;
  month: UsageCounts;
  /** Undefined when no daily quota is set. */
  imagesLeft?: number | undefined;
  chatTokensLeft?: number | undefined;
  /** For an admin: the whole workspace's (Discord server's, or all DMs') use today, and what is left of each budget set. */
  workspace?: WorkspaceUsage | undefined;
}

export interface WorkspaceUsage {
  platform: Platform;
  /** A Discord DM: all DMs together, held to the operator's budgets. */
  dm: boolean;
  today: UsageCounts;
  /** Undefined when no daily budget is set. */
  imagesLeft?: number | undefined;
  chatTokensLeft?: number | undefined;
}

function placeInLine(position: number): string {
  return position === 1 ? 'next in line' : `#${position} in line`;
}

/**
 * What becomes of a job a restart catches, running or waiting: it is recorded,
 * and the next start picks it up where it stopped; every restart message
 * follows this sentence.
 */
function afterRestart(asked: string): string {
  return `${quote(asked)} will continue after the restart.`;
}

const PLATFORM_NAMES: Readonly<Record<Platform, string>> = { slack: 'Slack', discord: 'Discord' };
/** What each platform's Markdown shows (Slack's `markdown_text` renders tables, Discord's messages do not). */
const MARKDOWN_SHOWN: Readonly<Record<Platform, string>> = {
  slack: 'headings, lists, emphasis, links, code blocks and tables.',
  discord: 'headings, lists, emphasis, links and code blocks, but no tables.',
};

export const copy = {
  /** A daily quota is used up; nothing was sent to the service. `resetsInSeconds`: until the next UTC midnight. */
  quotaReached: (quota: 'images' | 'chat tokens', limit: number, resetsInSeconds: number): string =>
    `🛑 You've used your ${amount(quota, limit)} for today. The quota resets at midnight UTC, in ${about(resetsInSeconds)}.`,
  /** Added to a queued job's progress message when the user is close to a daily quota. */
  quotaLeft: (left: readonly { quota: 'images' | 'chat tokens'; left: number }[]): string =>
    `_Left today: ${left.map(({ quota, left: count }) => amount(quota, count)).join(', ')}._`,
  /** `/usage`: this user's images and chat tokens today and this month, and what is left of each daily quota. */
  usage: (report: UsageReport): string => {
    const line = (label: string, totals: UsageCounts): string =>
      `**${label}:** ${amount('images', totals.images)}, ${amount('chat tokens', totals.chatTokens)}`;
    const lines = [line('Today', report.today), line('This month', report.month)];
    const left: string[] = [];
    if (report.imagesLeft !== undefined) left.push(amount('images', report.imagesLeft));
    if (report.chatTokensLeft !== undefined) left.push(amount('chat tokens', report.chatTokensLeft));
    if (left.length > 0) lines.push(`**Left today:** ${left.join(', ')} (resets at midnight UTC)`);
    const { workspace } = report;
    if (workspace !== undefined) {
      const whose = workspace.dm ? 'All DMs' : `This ${WORKSPACE_WORDS[workspace.platform]}`;
      lines.push(line(`${whose} today`, workspace.today));
      const budget: string[] = [];
      if (workspace.imagesLeft !== undefined) budget.push(amount('images', workspace.imagesLeft));
      if (workspace.chatTokensLeft !== undefined) budget.push(amount('chat tokens', workspace.chatTokensLeft));
      if (budget.length > 0) lines.push(`**Left of the daily budget:** ${budget.join(', ')} (resets at midnight UTC)`);
    }
    return lines.join('\n');
  },
  /** The database cannot be used: nothing was recorded or sent. */
  storeUnavailable: "⚠️ I can't take requests right now (my storage is unavailable). Please try again in a few minutes.",
  /** The job queue (Redis, with REDIS_URL) cannot be reached: nothing was queued or sent. */
  queueUnavailable:
    "⚠️ I can't take requests right now (my job queue is unavailable). Please try again in a few minutes.",
  /** A job accepted before a restart and too old to pick up again after it. */
  restartedTooLate: (asked: string): string =>
    `🔄 I restarted and ${quote(asked)} could not be picked up again: please ask again.`,
  /** A job whose worker died or hung mid-job more often than allowed: it is not tried again. */
  interruptedTooOften: (asked: string): string =>
    `⚠️ Working on ${quote(asked)} was interrupted too many times, so I stopped trying: please ask again.`,
  /** A job recorded by an older or newer version of the bot that this one cannot read. */
  unreadableJob: "⚠️ I couldn't pick this request up again after an update: please ask again.",
  thinking: '_Thinking…_',
  /** New work that arrives while the bot restarts: nothing was started. */
  restarting: "🔄 I'm restarting: please try again in a minute.",
  /**
   * The last word of a job the restart caught (waiting in line, or still
   * running when the drain ran out), keeping what was asked.
   */
  interruptedByRestart: (asked: string): string => `🔄 I'm restarting. ${afterRestart(asked)}`,
  /** Slack's assistant status, shown after the app's name ("genbot is thinking…"). */
  thinkingStatus: 'is thinking…',
  /** A conversation waiting for a free slot. */
  chatQueued: (position: number): string => `⏳ You're ${placeInLine(position)}.`,
  /** The same, as an assistant status after the app's name ("genbot is #3 in line"). */
  queuedStatus: (position: number): string => `is ${placeInLine(position)}`,
  /** Told privately when a reply has begun but nothing of it shows yet (a busy channel). */
  replyOnItsWay: "✍️ I'm on it: the answer will appear in this thread in a moment.",
  /** Said after a reply cut at its length limit. */
  replyTooLong: '_The reply was getting too long, so it stops here._',
  /**
   * The trigger message was deleted and the work stopped. The progress or
   * reply message keeps this note instead of disappearing: the thread still
   * says what became of the request, and surfaces need no delete.
   */
  cancelled: '_Cancelled._',

  /** The scheduler turned the request away; nothing was sent to the model. A restart says `interruptedByRestart`. */
  busy: (reason: Exclude<JobRejectionReason, 'shutting_down'>, retryAfterSeconds: number): string => {
    const when = `Try again in ${about(retryAfterSeconds)}.`;
    switch (reason) {
      case 'user_limit':
        return `⏳ You already have requests on the way. ${when}`;
      case 'queue_full':
        return `⏳ I'm very busy right now. ${when}`;
    }
  },
  noReplyText: 'I have no answer to that one. Try asking differently.',
  replyRefused: "I can't help with that one. Try rewording it.",
  /** Ends a reply the model stopped part-way for safety: the text so far stays above it. */
  replySafetyStop: '⚠️ _The model stopped this reply for safety reasons. Rewording the request may help._',

  replyFailed: (description: ErrorDescription, hadText: boolean): string =>
    hadText
      ? `⚠️ _This reply is incomplete. ${withRetryHint(description)}_`
      : `⚠️ I couldn't answer: ${withRetryHint(description)}`,

  /** A mention with nothing after it: no model call, just how to use the bot. */
  bareMention:
    '👋 Ask me something after the mention, or mention me in reply to an image with what to change in it. For a new image, use `/imagine`.',
  emptyPrompt: 'Tell me what to draw, for example: `/imagine a lighthouse at dusk`.',
  promptTooLong: (length: number, max: number): string =>
    `That prompt is ${length} characters long; keep it under ${max}.`,
  /** Slack's `/imagine … --ar` with nothing after the flag. */
  missingAspectRatio: `Add an aspect ratio after \`--ar\`, for example \`/imagine a lighthouse at dusk --ar 16:9\`. Allowed: ${ASPECT_RATIOS.join(', ')}.`,
  badAspectRatio: (given: string, allowed: readonly string[]): string =>
    `${quote(given, 20)} isn't a supported aspect ratio. Use one of: ${allowed.join(', ')}.`,

  imagining: (prompt: string): string => `🎨 Generating ${quote(prompt)}…`,
  imagineQueued: (prompt: string, position: number): string => `⏳ ${quote(prompt)} is ${placeInLine(position)}.`,
  imagineDone: (prompt: string, result: UploadCounts): string =>
    result.uploaded === 0 && result.tooLarge > 0
      ? allTooLarge('image', prompt, result)
      : `🎨 Done: ${plural(result.uploaded, 'image')} for ${quote(prompt)}.${tooLargeNote(result)}`,
  imagineFailed: (prompt: string, description: ErrorDescription): string =>
    `⚠️ Couldn't generate ${quote(prompt)}: ${withRetryHint(description)}`,
  imageComment: (prompt: string): string => `🎨 ${quote(prompt, 1000)}`,

  emptyInstruction: 'Tell me how to change the image, for example: “make it look like a watercolor”.',
  // Discord's Edit image message command (issue 15).
  /** Edit image on a message that shows no image. */
  editCommandNoImage: 'That message has no image to edit. Use **Edit image** on a message that shows one.',
  /** The form of Edit image sent after its message was deleted. */
  editCommandMessageGone: 'That message is gone, so there is no image to edit anymore.',
  noImageToEdit: "I couldn't find an image to edit: attach one, or mention me in reply to a message that has one.",
  notAnImage: (name: string): string =>
    `I can only edit images (${IMAGE_FORMATS_IN_WORDS}), and ${quote(name, 80)} isn't one.`,
  unsupportedImage: (name: string, reason: string): string => `I can't edit ${quote(name, 80)}: ${reason}`,
  downloadFailed: (name: string): string => `I couldn't download ${quote(name, 80)}. Trying again may help.`,
  /** A file that cannot be had whatever is tried (`too_large` is told as `unsupportedImage` with `tooLargeReason`). */
  fileUnavailable: (name: string, reason: Exclude<UnavailableReason, 'too_large'>): string => {
    const file = quote(name, 80);
    switch (reason) {
      case 'not_allowed':
        return `I'm not allowed to download ${file}: the app is probably missing the \`files:read\` permission. Ask whoever installed it to add it; trying again won't help.`;
      case 'hidden_by_limit':
        return `I can't open ${file}: it's hidden by this workspace's file history limit. Trying again won't help.`;
      case 'deleted':
        return `I can't open ${file}: it was deleted.`;
      case 'external':
        return `I can't open ${file}: it's stored outside the chat. Attach the image itself instead.`;
    }
  },
  /** Why an image is refused for its size (in `unsupportedImage`); `size` undefined when only the cap is known. */
  tooLargeReason: (size: number | undefined, limit: number): string =>
    size === undefined
      ? `it is larger than the limit of ${mebibytes(limit)}.`
      : `it is ${mebibytes(size)}, and the limit is ${mebibytes(limit)}.`,
  /** Why an image is refused for what its header declares (in `unsupportedImage`): checked before anything is sent. */
  tooManyPixels: (width: number, height: number, maxMegapixels: number): string =>
    `it is ${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} pixels, and the limit is ${maxMegapixels} megapixels.`,
  tooManyFrames: (frames: number, maxFrames: number): string =>
    `it has ${frames.toLocaleString('en-US')} frames, and the limit is ${maxFrames}.`,
  unreadableImageHeader: "I couldn't read its size.",

  // Files that go with a conversation to the model (issue 29): a file left out gets a note, the rest still goes.
  /** What to tell the person about a file the model will not see; nothing for an older image. */
  modelFileNote: (file: LeftOutFile): string | undefined => {
    if (file.reason === 'older_image') return undefined;
    const name = quote(file.name, 80);
    if (file.reason === 'over_request') return `📎 I left out ${name}: ${copy.modelFileProblem(file)}`;
    return `📎 I couldn't read ${name}: ${copy.modelFileProblem(file)}`;
  },
  /** Why a file is left out, as a sentence that follows its name (the CLI's `--file` says it too). */
  modelFileProblem: (file: LeftOutFile): string => {
    switch (file.reason) {
      case 'older_image':
        return 'only the 4 most recent images go.';
      case 'unsupported':
        return "it isn't an image (PNG, JPEG, GIF or WebP), a text file or a PDF.";
      case 'damaged':
        return 'it seems to be damaged.';
      case 'too_large': {
        const kind = `${file.kind === 'image' ? 'an' : 'a'} ${file.kind}`;
        return file.size === undefined
          ? `it is larger than ${fileSize(file.limit)}, the most ${kind} may be.`
          : `it is ${fileSize(file.size)}, and ${kind} may be at most ${fileSize(file.limit)}.`;
      }
      case 'image_refused':
        return file.problem.kind === 'pixels'
          ? copy.tooManyPixels(file.problem.width, file.problem.height, file.problem.maxMegapixels)
          : copy.tooManyFrames(file.problem.frames, file.problem.maxFrames);
      case 'over_request':
        return `together with the newer files it is more than the ${fileSize(file.limit)} I can send at once.`;
    }
  },
  /** A command whose payload the platform sent in a shape we cannot read. */
  unreadableCommand: "Sorry, I couldn't read that command. Trying again may help.",
  /** A slash command other than ours reached the bot (a misconfigured app). */
  unknownCommand: (command: string): string => `I don't know ${quote(command, 40)}. Try \`/imagine\` instead.`,
  editing: (instruction: string): string => `🖌️ Editing the image: ${quote(instruction)}…`,
  editQueued: (instruction: string, position: number): string =>
    `⏳ Your edit ${quote(instruction)} is ${placeInLine(position)}.`,
  editDone: (instruction: string, result: UploadCounts): string =>
    result.uploaded === 0 && result.tooLarge > 0
      ? allTooLarge('edited image', instruction, result)
      : `🖌️ Done: ${plural(result.uploaded, 'edited image')} for ${quote(instruction)}.${tooLargeNote(result)}`,
  editFailed: (instruction: string, description: ErrorDescription): string =>
    `⚠️ Couldn't edit the image for ${quote(instruction)}: ${withRetryHint(description)}`,
  editComment: (instruction: string): string => `🖌️ ${quote(instruction, 1000)}`,

  /** A conversation's reply while its tool call draws or edits (shown in italics, then gone). */
  drawingActivity: (prompt: string): string => `🎨 Drawing ${quote(prompt)}…`,
  editingActivity: (instruction: string): string => `🖌️ Editing the image: ${quote(instruction)}…`,
  /** The reply ends here when the model keeps calling tools past the rounds one message may take. */
  toolRoundsUsed: (rounds: number): string =>
    `_I stopped after ${rounds} rounds of drawing and editing for one message. Ask again to go on._`,
  /**
   * What a tool call's `tool_result` tells the model (not the person): plain
   * facts it can put in its own words. Errors say what to do instead.
   */
  toolResult: {
    generated: (prompt: string, uploaded: number, numbers: readonly number[]): string =>
      `Posted ${plural(uploaded, 'image')}${numbers.length === 0 ? '' : ` (${versionList(numbers)})`} for ${quote(prompt, 200)} in the conversation, with buttons to re-roll, vary and edit them.`,
    edited: (name: string, instruction: string, numbers: readonly number[]): string =>
      `Posted the edit of ${quote(name, 120)} (${quote(instruction, 200)})${numbers.length === 0 ? '' : ` as ${versionList(numbers)}`} in the conversation, with its buttons.`,
    postedBefore: 'This call was already carried out: its images are posted in the conversation.',
    refused: (told: string): string => `Not done. genbot told the person: ${told}`,
    noImage: 'There is no image in this conversation to edit. Ask the person to attach one.',
    unknownImage: (name: string, names: readonly string[]): string =>
      `No image in this conversation is named ${quote(name, 120)}. Its images are: ${names.map((each) => quote(each, 120)).join(', ')}.`,
    badInput: (problem: string): string => `The call's input does not fit the tool: ${problem}.`,
    unreadableInput: (problem: string): string => `The call's input is not a JSON object (${problem}).`,
  },

  // Settings (issue 31): what `/genbot set` says when a value does not fit; nothing changed.
  settingNotOneOf: (name: string, choices: readonly string[]): string =>
    `\`${name}\` can be one of: ${choices.map((choice) => `\`${choice}\``).join(', ')}. Nothing changed.`,
  settingOutOfRange: (name: string, min: number, max: number | undefined): string =>
    max === undefined
      ? `\`${name}\` takes a whole number from ${min} up. Nothing changed.`
      : `\`${name}\` takes a whole number from ${min} to ${max.toLocaleString('en-US')}. Nothing changed.`,
  settingTooLong: (name: string, length: number, max: number): string =>
    `\`${name}\` may be at most ${max.toLocaleString('en-US')} characters; this one is ${length.toLocaleString('en-US')}. Nothing changed.`,
  settingEmpty: (name: string): string =>
    `Give \`${name}\` a value, or use \`reset\` to go back to the default. Nothing changed.`,
  settingUnknown: (name: string, names: readonly string[]): string =>
    `There is no setting \`${name}\`. The settings are: ${names.map((each) => `\`${each}\``).join(', ')}.`,
  settingWorkspaceOnly: (name: string, platform: Platform): string =>
    `\`${name}\` is set for the whole ${WORKSPACE_WORDS[platform]} only: add \`--workspace\`${platform === 'discord' ? ' (`scope: server`)' : ''}. Nothing changed.`,
  settingsNotAllowed: (level: 'channel' | 'workspace', platform: Platform): string =>
    level === 'channel'
      ? `Only ${ADMIN_WORDS[platform].channel} can change this channel's settings. Nothing changed.`
      : `Only ${ADMIN_WORDS[platform].workspace} can change the ${WORKSPACE_WORDS[platform]}'s settings. Nothing changed.`,
  settingsNotInDm: (platform: Platform): string =>
    platform === 'discord'
      ? 'A DM has no settings of its own: change them in a server channel. Nothing changed.'
      : "A DM has no channel settings: add `--workspace` to change the workspace's. Nothing changed.",
  settingChanged: (change: SettingChangeWords): string =>
    `✅ \`${change.name}\` ${levelWords(change)} is now ${settingValue(change.value)} (was ${settingValue(change.previous)}).`,
  settingReset: (change: SettingChangeWords): string =>
    change.previous === undefined
      ? `\`${change.name}\` had no value ${levelWords(change)}; nothing to reset.`
      : `✅ \`${change.name}\` ${levelWords(change)} is reset (was ${settingValue(change.previous)}); it is now ${sourceWords(change.inheritsFrom ?? 'default', change.platform)}.`,
  settingsUnchanged: 'Nothing changed: the form held the values already set.',
  settingsSaved: (changes: readonly SettingChangeWords[]): string =>
    `✅ Saved: ${changes.map((change) => `\`${change.name}\` ${change.value === undefined ? 'reset' : `→ ${settingValue(change.value)}`}`).join(', ')}.`,
  /** `/genbot show`: each effective value, where it comes from, and the latest changes. */
  settingsShown: (shown: SettingsShown): string => {
    const lines = shown.values.map(
      (entry) => `• \`${entry.name}\`: ${settingValue(entry.value)} _(${sourceWords(entry.from, shown.platform)})_`,
    );
    const changes = shown.changes.map(
      (change) =>
        `• ${change.at.toISOString().slice(0, 16).replace('T', ' ')} UTC, <@${change.by}>: \`${change.name}\` ${levelWords(change)} ${change.value === undefined ? 'reset' : `→ ${settingValue(change.value)}`}`,
    );
    return [
      `**genbot's settings ${shown.dm ? 'in this DM' : 'in this channel'}**`,
      ...lines,
      ...(changes.length === 0 ? [] : ['**Latest changes**', ...changes]),
      shown.mayChange
        ? shown.platform === 'discord'
          ? '_Change them with `/genbot settings`, or one with `/genbot set` (`scope: server` for every channel) and `/genbot reset`._'
          : '_Change one with `/genbot set NAME VALUE` (add `--workspace` for every channel), or `/genbot reset NAME`._'
        : '_Only admins can change these._',
    ].join('\n');
  },
  genbotHelp:
    "Use `/genbot` for the settings form, `/genbot show` for this channel's settings, `/genbot set NAME VALUE [--workspace]` or `/genbot reset NAME [--workspace]`.",
  /** `enabled` is off where a mention or command came from; `/genbot` still works there. */
  disabledHere: 'genbot is turned off in this channel. An admin can turn it on with `/genbot set enabled on`.',
  /**
   * A workspace's (server's) daily budget is used up, or the request would pass it; nothing was sent to the service.
   * `where`: the workspace's platform, or `dm` for Discord DMs, which share one budget.
   */
  budgetReached: (
    budget: 'images' | 'chat tokens',
    limit: number,
    left: number,
    where: Platform | 'dm',
    resetsInSeconds: number,
  ): string => {
    const whose =
      where === 'dm' ? 'the daily budget of all DMs with me' : `this ${WORKSPACE_WORDS[where]}'s daily budget`;
    const spent =
      where === 'dm' ? 'All DMs with me together have used their' : `This ${WORKSPACE_WORDS[where]} has used its`;
    return left > 0
      ? `🛑 That would pass ${whose}: ${amount(budget, left)} left of ${amount(budget, limit)}. Ask for fewer, or wait until midnight UTC, in ${about(resetsInSeconds)}.`
      : `🛑 ${spent} ${amount(budget, limit)} for today. The budget resets at midnight UTC, in ${about(resetsInSeconds)}.`;
  },

  /** `/genbot`'s form as a Slack modal: labels, options and placeholders are plain text; sections take mrkdwn. */
  settingsModal: {
    title: 'genbot settings',
    save: 'Save',
    cancel: 'Cancel',
    close: 'Close',
    level: (level: 'channel' | 'workspace', platform: Platform): string =>
      level === 'channel' ? 'This channel' : `The whole ${WORKSPACE_WORDS[platform]}`,
    intro: (level: 'channel' | 'workspace', channelId: string, platform: Platform): string =>
      level === 'channel'
        ? `Settings of <#${channelId}>. A field on *Inherit* takes the ${WORKSPACE_WORDS[platform]}'s value, else the default.`
        : `Settings of the whole ${WORKSPACE_WORDS[platform]}, for every channel that sets none of its own. A field on *Inherit* takes the default.`,
    label: (name: string): string => SETTING_LABELS[name] ?? name,
    /** What a field left on "inherit" (or empty) takes, and from where. */
    inherit: (name: string, value: string, from: 'channel' | 'workspace' | 'default', platform: Platform): string =>
      `Inherit: ${value === '' ? (NOTHING_SET[name] ?? 'not set') : value} (${sourceWords(from, platform)})`,
    emptyInherits: 'Leave it empty to inherit.',
    /** A stored value longer than a Slack text input holds: shown, not editable, and kept. */
    tooLongForForm: (name: string, length: number, max: number): string =>
      `*${SETTING_LABELS[name] ?? name}*: ${length.toLocaleString('en-US')} characters, more than this form holds (${max.toLocaleString('en-US')}). It stays as it is; change it with \`/genbot set ${name} …\`.`,
    /** A submission or switch whose form the bot cannot vouch for (tampered, another person's, another workspace's). */
    invalid: 'This form could not be checked. Open it again with `/genbot`. Nothing changed.',
    notOpened: "⚠️ I couldn't open the settings form. Try `/genbot` again, or `/genbot show`.",
  },

  uploadFailed: "⚠️ The images were made but couldn't be uploaded here. Trying again may help.",

  // Buttons under results, the edit form, undo and versions (issue 15).
  buttonReroll: 'Re-roll',
  /** `image` is 1-based, given when the result has several images. */
  buttonVary: (image?: number): string => (image === undefined ? 'Vary' : `Vary ${image}`),
  buttonEdit: (image?: number): string => (image === undefined ? 'Edit' : `Edit ${image}`),
  buttonUndo: 'Undo',
  /** The edit form's title (Slack allows 24 characters): the version it edits, or with several images, which one. */
  editFormTitle: 'Edit image',
  editFormTitleVersion: (number: number): string => `Edit v${number}`,
  editFormTitleImage: (image: number): string => `Edit image ${image}`,
  editFormLabel: 'How should it change?',
  editFormPlaceholder: 'make it look like a watercolor',
  editFormSubmit: 'Edit',
  /** What a Vary asks the model for (an edit with this instruction). */
  variationInstruction:
    'Make a close variation of this image: keep its subject, composition, colours and style, and change only small details.',
  /** The word for a variation in its files' names (`a-fox-v1-variation-1-3fa2c1.png`). */
  variationFileWord: 'variation',
  /** A version of an image, named in messages (`I can't open “image v2”…`). */
  versionName: (number: number): string => `image v${number}`,
  /** A result's lineage, briefly: `v3 · from v2 · “make it blue”`. */
  lineage: (number: number, parentNumber: number, instruction: string): string =>
    `v${number} · from v${parentNumber} · ${quote(instruction, 200)}`,
  /** `number`: the new version's, or each image's when one edit made several (`v3, v4 · from v2 · …`). */
  editedComment: (number: number | readonly number[], parentNumber: number, instruction: string): string =>
    `🖌️ ${versionList(number)} · from v${parentNumber} · ${quote(instruction, 1000)}`,
  variedComment: (number: number | readonly number[], parentNumber: number): string =>
    `🔀 ${versionList(number)} · from v${parentNumber} · variation`,
  /** What is left of a result's progress message when it could not be deleted: the result stands right below it. */
  resultBelow: '⬇️ Done: the result is just below.',
  /** A press that came while its result was still being posted, and the post never finished. */
  versionNotPosted: "⚠️ That image didn't finish posting, so its buttons can't be used. Start again with `/imagine`.",
  /** An undo shows version `number` again, the one `undone` was made from. */
  restoredComment: (number: number, undone: number): string => `↩️ v${number} again · undo of v${undone}`,
  rerollComment: (prompt: string): string => `🎲 ${quote(prompt, 1000)} · re-roll`,
  varying: (number: number): string => `🔀 Making a variation of v${number}…`,
  varyQueued: (number: number, position: number): string =>
    `⏳ Your variation of v${number} is ${placeInLine(position)}.`,
  varyDone: (number: number, result: UploadCounts): string =>
    result.uploaded === 0 && result.tooLarge > 0
      ? allTooLarge('variation', `v${number}`, result)
      : `🔀 Done: ${plural(result.uploaded, 'variation')} of v${number}.${tooLargeNote(result)}`,
  varyFailed: (number: number, description: ErrorDescription): string =>
    `⚠️ Couldn't make a variation of v${number}: ${withRetryHint(description)}`,
  /** A button or form whose record is gone (past retention) or never existed (forged). */
  buttonGone:
    "⚠️ That button doesn't work anymore: the image it belongs to is gone or too old. Start again with `/imagine`.",
  /** A press on a message other than the bot's own result of that image, where it was posted (a copied button): nothing ran. */
  pressNotOnResult:
    "⚠️ That button only works on the result it came with, in the channel where it was posted. Pressing it here again won't help: use the buttons under that result.",
  /** The same person pressed the same button again while their first press still runs. */
  alreadyRunning: '⏳ Still working on your first press of that button: the result will show up in the thread.',
  /** The same form arrived twice: the first one is being worked on. */
  formAlreadySent: '⏳ That form was already sent: the edit is on its way.',
  /** Undo on a version that was not made from another one. */
  nothingToUndo: 'There is nothing to undo: this is the first version of the image.',
  /**
   * Discord, the app installed to a person's account and used where the bot is not: the answer
   * can only reach them through the command's own 15 minutes, and those are running out.
   */
  interactionTimeRunningOut:
    '⏳ This is taking longer than Discord lets me answer a command here (15 minutes), so the result will not show up. Please try again in a little while.',
  /** Discord, a user install: Edit image's form outlived what the bot remembers of the message. */
  editFormForgotten: '⏳ I lost track of that message while the form was open. Run Edit image on it again.',
  /** The platform refused to open the form because its trigger expired (Slack: 3 s). */
  formTimedOut: '⏳ The form took too long to open. Press Edit again.',
  /** The platform refused to open the form for another reason. */
  formNotOpened: "⚠️ I couldn't open the form. Pressing Edit again may help.",
  /**
   * Said to the model, not to a person: a conversation's system prompt when the deployment set none
   * (CHAT_SYSTEM_PROMPT). Kept here so every word the bot puts forward is in one place. It claims only
   * what a conversation does: the model answers, and images come from `/imagine` and the buttons.
   */
  builtInSystemPrompt: (platform: Platform, today: string, tools: boolean): string => {
    const where = PLATFORM_NAMES[platform];
    return [
      `You are genbot, an assistant in ${where}. Today is ${today}.`,
      `People's messages start with their name. Images and files shared in the conversation come with the latest message, each image labelled with its name. Your replies are shown in ${where} as Markdown: ${MARKDOWN_SHOWN[platform]}`,
      tools
        ? 'You answer questions and help with writing, code and ideas, and you can look at the images and files shared here. When someone asks for a picture, call `generate_image`; when they ask to change an image of this conversation, call `edit_image`. The result is posted in the conversation with buttons to re-roll, vary, edit and undo it, so say briefly what you made rather than describing it.'
        : 'You answer questions and help with writing, code and ideas, and you can look at the images and files shared here. You cannot make or change images yourself: people make them with `/imagine` and change them with the buttons under an image, so point them there when they ask for a picture.',
    ].join('\n\n');
  },

  // Slack's AI-app surfaces: the agent (or assistant) view's prompts and status, the Home tab, feedback buttons.

  /** Above the prompts a new conversation in the app's DMs suggests. */
  suggestedPromptsTitle: 'Try one of these',
  /**
   * The prompts a new conversation in the app's DMs suggests (Slack shows at most 4). A chosen prompt
   * is sent as a plain message, so each works as one: a drawing when the model has the image tools
   * (else how to make one), and questions the model answers from its system prompt, since a prompt
   * cannot attach the image or file it would be about.
   */
  suggestedPrompts: (tools: boolean): { title: string; message: string }[] => [
    tools
      ? { title: '🎨 Draw a picture', message: 'Draw a lighthouse on a rocky coast at dusk, in watercolour.' }
      : {
          title: '✍️ Help me write',
          message: 'Help me write a short, friendly note telling my team the launch moved to Friday.',
        },
    tools
      ? { title: '🖌️ Edit an image', message: 'How do I get you to edit a picture of mine?' }
      : { title: '🎨 Make an image', message: 'How do I make an image here?' },
    { title: '📎 Ask about a file', message: 'What kinds of files can you read, and how do I ask you about one?' },
    { title: '💡 What can you do?', message: 'What can you do, and how do I use you here?' },
  ],
  /** Slack's loading line in a DM while the model works (the agent view shows it in place of the status). */
  thinkingLoading: 'Thinking…',
  /** The Home tab's heading. */
  homeTitle: 'What I can do',
  homeIntro: (tools: boolean): string =>
    tools
      ? 'I answer questions, draw pictures and edit images, and I can read the images and files you share with me.'
      : 'I answer questions and read the images and files you share with me; `/imagine` makes pictures.',
  homeHowToTitle: 'How to use me',
  homeHowTo: (tools: boolean): string[] => [
    '**Messages tab:** write to me there, no mention needed. Each message starts a conversation: reply in its thread to go on.',
    '**In a channel:** mention me in a message or a thread. The thread is the conversation, with its images and files.',
    tools
      ? '**Pictures:** ask for one in words, or use `/imagine` with a prompt (`--ar 16:9` for a wide one). The buttons under a result re-roll, vary, edit or undo it.'
      : '**Pictures:** `/imagine` with a prompt (`--ar 16:9` for a wide one). The buttons under a result re-roll, vary, edit or undo it.',
    '**`/usage`:** what you used today and this month, as below.',
  ],
  homeUsageTitle: 'Your usage',
  /** For those who may change the workspace's settings: the way into them from the Home tab. */
  homeSettingsTitle: 'Settings',
  homeSettings:
    "You can choose this workspace's models, my voice (a system prompt), image defaults and daily budget. `/genbot` in a channel sets that channel's own.",
  homeSettingsButton: 'Workspace settings',
  /** The thumbs under a reply streamed natively on Slack, and what a screen reader says for each. */
  installedTitle: 'genbot is installed',
  installed: (workspace: string | undefined): string =>
    `genbot is now in ${workspace ?? 'your workspace'}. Mention it in a channel, or write to it in its Messages tab in Slack.`,
  installRefusedTitle: 'genbot was not installed',
  installRefused: (reason: InstallRefusal): string => INSTALL_REFUSALS[reason],
  feedbackGood: '👍',
  feedbackGoodLabel: 'Good answer',
  feedbackBad: '👎',
  feedbackBadLabel: 'Bad answer',

  /** Discord's settings form (`/genbot settings`): two modals, for its chat and its image settings. */
  discordSettings: {
    title: (level: 'channel' | 'workspace', page: 'chat' | 'images'): string =>
      `${level === 'channel' ? 'This channel' : 'The whole server'}: ${page === 'chat' ? 'chat and on/off' : 'images'}`,
    intro: (level: 'channel' | 'workspace', page: 'chat' | 'images'): string =>
      [
        level === 'channel'
          ? "What is left to **inherit** follows the server's settings, else genbot's defaults."
          : "What is left to **inherit** follows genbot's defaults. A channel's own settings win over these.",
        page === 'chat'
          ? 'The image settings: `/genbot settings page:images`, or the button under the answer.'
          : 'The chat settings: `/genbot settings`, or the button under the answer.',
      ].join('\n'),
    /** What a field holds now: its own value, or what it inherits and from where. */
    now: (own: string | undefined, effective: string, from: 'channel' | 'workspace' | 'default'): string => {
      const shown = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
      if (own !== undefined) return `Set here: ${shown(own)}`;
      if (effective === '') return 'Not set anywhere';
      return `Inherited: ${shown(effective)} (${sourceWords(from, 'discord')})`;
    },
    inherit: (own: string | undefined, effective: string, from: 'channel' | 'workspace' | 'default'): string => {
      if (own !== undefined || effective === '') return 'Inherit';
      const shown = effective.length > 60 ? `${effective.slice(0, 59)}…` : effective;
      return `Inherit: ${shown} (${sourceWords(from, 'discord')})`;
    },
    /** Placeholders: a text field left empty inherits. */
    textPlaceholder: 'Empty: inherit',
    numberPlaceholder: (ceiling: number | undefined): string =>
      ceiling === undefined
        ? 'A whole number; empty: inherit'
        : `A whole number up to ${ceiling.toLocaleString('en-US')}; empty: inherit`,
    choicePlaceholder: (choices: readonly string[]): string => {
      const listed = `One of: ${choices.join(', ')}`;
      return listed.length > 100 ? `${listed.slice(0, 99)}…` : listed;
    },
    openChat: 'Chat settings…',
    openImages: 'Image settings…',
    openServer: 'Server settings…',
    openChannel: "This channel's settings…",
    /** A field or more did not fit: each says what would. */
    notSaved: (problems: readonly string[]): string =>
      ['Nothing was saved:', ...problems.map((problem) => `• ${problem}`)].join('\n'),
    /** The form names another channel than the one it was sent from (a forged or misrouted submit). */
    otherChannel: 'This form belongs to another channel. Nothing changed.',
  },
};
