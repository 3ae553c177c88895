import { copy } from '../copy/copy.js';
import type { ChatLogger } from '../surface/ports.js';
import type { AttachmentRef, ChatTarget, ResultAction } from '../surface/surface.js';
import { MAX_PROMPT_CHARS } from '../chat/imagine.js';
import {
  type ImageVersion,
  type ImageVersionStore,
  type InteractionToken,
  type JobStore,
  type Platform,
  StoreUnavailableError,
} from '../store/index.js';
import { parseButtonId } from '../results/button-id.js';
import type { ChatJob } from './chat-job.js';
import type { JobIntake, SubmitOptions } from './job-intake.js';
import { parentShown } from './parent-shown.js';

/** The message a button was pressed on, as the platform's delivery tells it. */
export interface PressedMessage {
  /** Its id (Slack ts, Discord snowflake). */
  id: string;
  /** Whether this bot posted it (Slack: its user or bot id; Discord: its author). */
  bySelf: boolean;
}

/** A press of a result's button, as ingress parsed it from the platform's delivery. */
export interface ButtonPress {
  /** The job it may start, from the trigger (Slack `trigger_id`, Discord interaction id), prefixed. */
  jobId: string;
  /** The button's id as the platform gave it back. */
  buttonId: string;
  platform: Platform;
  workspaceId?: string | undefined;
  channelId: string;
  /** The channel whose settings apply, when not `channelId` (a Discord thread's parent). */
  settingsChannelId?: string | undefined;
  /** Who pressed: the job counts for them. */
  userId: string;
  /** Where the new result and its progress go (Slack: the result's thread; Discord: the interaction's answer). */
  target: ChatTarget;
  interaction?: InteractionToken | undefined;
  /** The message the button is on: only the bot's own result of the version counts. */
  message: PressedMessage;
  /** Its images as the press showed them, where the bot may not read the message back (see `ResultActionInput.shown`). */
  shown?: readonly AttachmentRef[] | undefined;
}

/** The edit form to open, in copy.ts's words; `state` travels with it and comes back on submit. */
export interface EditForm {
  title: string;
  label: string;
  placeholder: string;
  submit: string;
  maxLength: number;
  /** Opaque: Slack `private_metadata`, Discord the modal's `custom_id`. */
  state: string;
}

/**
 * A submitted edit form, as ingress parsed it. `jobId` from the form's trigger: a form sent twice is one job.
 * Its Edit press was checked to be on the bot's own message before the form opened.
 */
export interface FormSubmission extends Omit<ButtonPress, 'buttonId' | 'message'> {
  state: string;
  instruction: string;
  /** The message whose Edit opened the form, when the platform says (Discord) or the form carried it (Slack). */
  messageId?: string | undefined;
}

export type PressAnswer =
  /** Edit: open this form at once (Slack's trigger_id lasts 3 s); nothing was read or recorded yet. */
  | { kind: 'form'; form: EditForm }
  /** A job was recorded and queued (`duplicate`: this very delivery was seen before). */
  | { kind: 'started'; duplicate: boolean; position?: number | undefined }
  /** Nothing started: `answer` goes to the presser alone. */
  | { kind: 'refused'; answer: string }
  /** The form's instruction does not fit: shown on its field, the form stays open. */
  | { kind: 'invalid'; error: string };

export interface ResultPressesOptions {
  versions: ImageVersionStore;
  intake: JobIntake;
  logger: ChatLogger;
  /**
   * Where the images earlier jobs were shown are read, for a press that
   * shows its own (`ButtonPress.shown`): Undo and a Re-roll of an edit read
   * the version's parent (see `parentShown`). Without it, only the pressed
   * message's images go with such a job.
   */
  jobs?: Pick<JobStore, 'get'> | undefined;
}

/**
 * Ingress's side of result buttons, for every platform: a press or a form
 * is checked (the id is ours, its record exists, it was pressed on the bot's
 * own result of that version in the channel it was posted in: a copied button
 * would carry a version, perhaps from a private channel, into another one)
 * and admitted (quota, share,
 * one press at a time per person and button) before the platform is
 * answered, so every refusal is private; then the job is recorded and queued
 * through the JobIntake, and a worker runs it.
 */
export class ResultPresses {
  readonly #options: ResultPressesOptions;

  constructor(options: ResultPressesOptions) {
    this.#options = options;
  }

  /** `options.beforeQueue` as for `JobIntake.submit`: run only when a job starts. */
  async press(press: ButtonPress, options: SubmitOptions = {}): Promise<PressAnswer> {
    const target = parseButtonId(press.buttonId);
    if (target === undefined) {
      this.#options.logger.warn({ jobId: press.jobId }, 'a button id this bot did not make');
      return { kind: 'refused', answer: copy.buttonGone };
    }
    if (!press.message.bySelf) {
      this.#options.logger.warn({ jobId: press.jobId }, 'button refused: pressed on a message this bot did not post');
      return { kind: 'refused', answer: copy.pressNotOnResult };
    }
    // The form opens before anything slow; its record is checked when it is submitted.
    if (target.action === 'edit') return { kind: 'form', form: editForm(press.buttonId) };
    return this.#submit(
      target.action,
      target.ref,
      press,
      { messageId: press.message.id, buttonId: press.buttonId },
      options,
    );
  }

  async submitForm(submission: FormSubmission, options: SubmitOptions = {}): Promise<PressAnswer> {
    const instruction = submission.instruction.trim();
    if (instruction === '') return { kind: 'invalid', error: copy.emptyInstruction };
    if (instruction.length > MAX_PROMPT_CHARS) {
      return { kind: 'invalid', error: copy.promptTooLong(instruction.length, MAX_PROMPT_CHARS) };
    }
    const target = parseButtonId(submission.state);
    if (target?.action !== 'edit') {
      this.#options.logger.warn({ jobId: submission.jobId }, 'a form this bot did not open');
      return { kind: 'refused', answer: copy.buttonGone };
    }
    const answer = await this.#submit(
      'edit',
      target.ref,
      submission,
      { messageId: submission.messageId, instruction },
      options,
    );
    return answer.kind === 'started' && answer.duplicate ? { kind: 'refused', answer: copy.formAlreadySent } : answer;
  }

  async #submit(
    action: ResultAction,
    ref: string,
    from: Omit<ButtonPress, 'buttonId' | 'message'>,
    { messageId, instruction, buttonId }: { messageId?: string | undefined; instruction?: string; buttonId?: string },
    options: SubmitOptions,
  ): Promise<PressAnswer> {
    const { versions, intake, logger } = this.#options;
    let version: ImageVersion | undefined;
    try {
      version = await versions.byRef(ref);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      logger.error({ err: error, jobId: from.jobId }, 'button refused: the store is unavailable');
      return { kind: 'refused', answer: copy.storeUnavailable };
    }
    if (version === undefined || version.platform !== from.platform) {
      logger.info({ jobId: from.jobId, action }, 'button refused: its record is gone');
      return { kind: 'refused', answer: copy.buttonGone };
    }
    if (!onItsResult(version, from.channelId, messageId)) {
      logger.warn({ jobId: from.jobId, action }, 'button refused: pressed away from its result');
      return { kind: 'refused', answer: copy.pressNotOnResult };
    }
    if (action === 'undo' && version.parent === undefined) return { kind: 'refused', answer: copy.nothingToUndo };
    const shown = await this.#shownWith(action, version, from);
    const job: ChatJob = {
      id: from.jobId,
      platform: from.platform,
      workspaceId: from.workspaceId,
      channelId: from.channelId,
      settingsChannelId: from.settingsChannelId,
      threadId: from.target.threadId,
      userId: from.userId,
      input: {
        kind: action,
        action: {
          target: from.target,
          version: { jobId: version.jobId, index: version.index },
          userId: from.userId,
          ...(instruction === undefined ? {} : { instruction }),
          ...(shown.length === 0 ? {} : { shown }),
        },
      },
      interaction: from.interaction,
      activeKey: buttonId === undefined ? undefined : `${from.platform}:${from.userId}:${buttonId}`,
    };
    const result = await intake.submit(job, options);
    if (!result.accepted) return { kind: 'refused', answer: result.answer };
    return { kind: 'started', duplicate: result.duplicate, position: result.position };
  }

  /** The press's own images, and its version's parent's as an earlier job was shown them; none where the bot reads messages itself. */
  async #shownWith(
    action: ResultAction,
    version: ImageVersion,
    from: Omit<ButtonPress, 'buttonId' | 'message'>,
  ): Promise<readonly AttachmentRef[]> {
    const { jobs, versions, logger } = this.#options;
    if (from.shown === undefined) return [];
    if (jobs === undefined) return from.shown;
    try {
      return [...from.shown, ...(await parentShown(action, version, { versions, jobs }))];
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // The press's own images still go: an action that reads no parent runs as well.
      logger.warn({ err: error, jobId: from.jobId }, 'could not read what earlier presses showed');
      return from.shown;
    }
  }
}

/**
 * Whether a press in `channelId` on message `messageId` is on the version's
 * own result. A version is recorded just before it is posted, so its message
 * may not be known yet: then its channel alone decides.
 */
function onItsResult(version: ImageVersion, channelId: string, messageId: string | undefined): boolean {
  if (version.channelId !== channelId) return false;
  return version.messageId === undefined || messageId === undefined || version.messageId === messageId;
}

/** The edit form of an Edit button. */
export function editForm(buttonId: string): EditForm {
  const name = parseButtonId(buttonId)?.formName;
  return {
    title:
      name === undefined
        ? copy.editFormTitle
        : 'version' in name
          ? copy.editFormTitleVersion(name.version)
          : copy.editFormTitleImage(name.image),
    label: copy.editFormLabel,
    placeholder: copy.editFormPlaceholder,
    submit: copy.editFormSubmit,
    maxLength: MAX_PROMPT_CHARS,
    state: buttonId,
  };
}
