import { copy } from '../copy/copy.js';
import { imagineInputProblem } from '../chat/imagine.js';
import type { ChatJob } from './chat-job.js';

/**
 * A person's own mistake in what they asked, told to them alone before
 * anything is recorded or sent: an `/imagine` without a usable prompt or
 * aspect ratio, a mention with nothing in it. Undefined when the job can run.
 */
export function inputProblem(job: ChatJob): string | undefined {
  if (job.input.kind === 'imagine') return imagineInputProblem(job.input.imagine);
  // A button's press is checked against its record by ResultPresses; its form's instruction there too.
  if (job.input.kind !== 'mention') return undefined;
  const { trigger, referenced } = job.input.mention;
  const bare = trigger.text.trim() === '' && trigger.attachments.length === 0 && referenced === undefined;
  return bare ? copy.bareMention : undefined;
}
