/**
 * Buttons under results (the press side is `ResultPresses` in `@genbot/core/jobs`), the edit form, undo and the version tree, for every
 * platform. How a platform app uses it:
 *
 * 1. Showing: nothing to do but render. A job's images reach the surface as
 *    `uploadFiles(target, files, comment, buttons)`; put `buttons` (label and
 *    opaque `id`, from copy.ts) on that same message (Slack an actions block
 *    with the id as `action_id` and `value`, Discord an action row with the id
 *    as `custom_id`). The comment already carries the lineage ("v3 · from v2 ·
 *    “make it blue”"). Implement `ChatSurface.postedImage` so a stored version
 *    can be downloaded again.
 * 2. A press: parse the delivery at the edge into a `ButtonPress` (job id
 *    from the trigger: Slack `trigger_id`, Discord interaction id, prefixed;
 *    the target where the new result goes; the message pressed on and
 *    whether the bot posted it: a press counts only on the version's own
 *    result, in its channel) and call `ResultPresses.press` (`@genbot/core/jobs`)
 *    before answering the platform. `form`: open it at once with
 *    `form.state` attached (Slack views.open with the trigger_id; Discord a
 *    modal); `refused`: answer privately with `answer`; `started`: answer
 *    publicly (the job's progress shows where it runs).
 * 3. A form: parse the submission into a `FormSubmission` (job id from the
 *    form: Slack `view.id`, Discord the submit's interaction id; the message
 *    whose Edit opened it, carried with the form where the platform does not
 *    say) and call
 *    `ResultPresses.submitForm`; `invalid` goes on the field, `refused`
 *    privately, `started` closes the form.
 * 4. Record where the result message is (`UploadReceipt.messageId`), so a
 *    version is found from the message that shows it.
 *
 * The worker side (JobWorker) runs the jobs these start (`reroll`, `vary`,
 * `edit`, `undo`) and adds the buttons to every result it uploads.
 */
export { buttonId, type ButtonTarget, type FormName, parseButtonId } from './button-id.js';
export { resultButtons, type ResultButtonsOptions } from './result-buttons.js';
export type { ResultActionInput } from './lineage.js';
export type { VersionLineage } from '../chat/version-lineage.js';
export { resolveResultAction, type ResolvedAction } from './resolve-action.js';
