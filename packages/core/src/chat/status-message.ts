import { systemClock } from './clock.js';
import type { ChatDeps } from './deps.js';
import { withRetries } from './retry.js';
import type { ChatTarget, MessageRef } from './surface.js';

/** Posts standard Markdown (formatted for the surface, cut to its limit), retrying rate limits and hiccups. */
export function say(deps: ChatDeps, target: ChatTarget, markdown: string): Promise<MessageRef> {
  const { surface } = deps;
  return withRetries(() => surface.post(target, fitted(deps, markdown)), deps.clock ?? systemClock);
}

/** Formatted for the surface and never over its message limit (bot copy quotes user text). */
export function fitted(deps: ChatDeps, markdown: string): string {
  const text = deps.surface.formatMarkdown(markdown);
  const max = deps.surface.limits.maxMessageChars;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A visible in-progress message that later says how things ended. Updating
 * it never throws: the outcome is logged when the platform refuses it.
 */
export class StatusMessage {
  readonly #deps: ChatDeps;
  readonly #ref: MessageRef;

  private constructor(deps: ChatDeps, ref: MessageRef) {
    this.#deps = deps;
    this.#ref = ref;
  }

  static async post(deps: ChatDeps, target: ChatTarget, markdown: string): Promise<StatusMessage> {
    return new StatusMessage(deps, await say(deps, target, markdown));
  }

  async update(markdown: string): Promise<void> {
    const { surface } = this.#deps;
    try {
      await withRetries(() => surface.edit(this.#ref, fitted(this.#deps, markdown)), this.#deps.clock ?? systemClock);
    } catch (error) {
      this.#deps.logger.error({ err: error }, 'could not update the status message');
    }
  }
}
