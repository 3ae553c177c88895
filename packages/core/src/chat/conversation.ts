import type { ModelContentBlock } from '../files/model-content.js';
import type { MessageParam } from '../genai/types.js';
import type { ThreadMessage } from '../surface/surface.js';

export interface ConversationOptions {
  /** Estimated tokens the whole conversation may use (default 8,000). */
  tokenBudget?: number;
  /** The conversation's files as content blocks (`conversationFiles`): they go with the last user turn. */
  attached?: readonly ModelContentBlock[] | undefined;
}

export const DEFAULT_TOKEN_BUDGET = 8_000;

// A rough but steady estimate: about four characters a token for English text.
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

interface Turn {
  role: 'user' | 'assistant';
  text: string;
}

function toTurn(message: ThreadMessage): Turn {
  const text = message.text.trim();
  if (message.author.isSelf) return { role: 'assistant', text };
  return { role: 'user', text: `${message.author.name}: ${text}` };
}

function truncateToBudget(turn: Turn, budget: number): Turn {
  const maxChars = Math.max(1, budget * CHARS_PER_TOKEN - 1);
  return turn.text.length <= maxChars ? turn : { ...turn, text: `${turn.text.slice(0, maxChars)}…` };
}

/**
 * The thread as a conversation for the messages operation: the bot's own
 * messages are `assistant`, everyone else's `user` prefixed with their name.
 * Messages after the trigger are left out; the oldest go first when over the
 * token budget, the trigger always stays (shortened if it alone is over);
 * consecutive turns of one role are merged and the conversation starts with a
 * user turn, as the operation requires. The files' blocks (every image a
 * conversation holds, whoever posted it) go with the last turn: only a user
 * turn may carry images.
 */
export function buildConversation(
  thread: readonly ThreadMessage[],
  trigger: ThreadMessage,
  options: ConversationOptions = {},
): MessageParam[] {
  const budget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  const triggerIndex = thread.findIndex((message) => message.id === trigger.id);
  const earlier = (triggerIndex === -1 ? thread : thread.slice(0, triggerIndex))
    .filter((message) => message.text.trim() !== '')
    .map(toTurn);

  const last = truncateToBudget(toTurn(trigger), budget);
  let used = estimateTokens(last.text);
  const kept: Turn[] = [];
  for (let index = earlier.length - 1; index >= 0; index -= 1) {
    const turn = earlier[index];
    if (turn === undefined) continue;
    const cost = estimateTokens(turn.text);
    if (used + cost > budget) break;
    used += cost;
    kept.unshift(turn);
  }

  const merged: Turn[] = [];
  for (const turn of [...kept, last]) {
    const previous = merged.at(-1);
    if (previous?.role === turn.role) previous.text = `${previous.text}\n\n${turn.text}`;
    else if (merged.length > 0 || turn.role === 'user') merged.push({ ...turn });
  }
  const attached = options.attached ?? [];
  return merged.map((turn, index) =>
    index === merged.length - 1 && attached.length > 0
      ? // Files first, then the words about them, as the messages operation recommends.
        { role: turn.role, content: [...attached, { type: 'text', text: turn.text }] }
      : { role: turn.role, content: turn.text },
  );
}
