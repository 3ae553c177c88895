import type { SlackFake, SlackMessage } from '@genbot/fakes';
import { z } from 'zod';

const section = z.looseObject({ type: z.literal('section'), text: z.looseObject({ text: z.string() }) });
const actions = z.looseObject({
  type: z.literal('actions'),
  elements: z.array(z.looseObject({ action_id: z.string(), text: z.looseObject({ text: z.string() }) })),
});

/** What a message shows as text: its text, or its section block's (a result's file message carries its text as a block). */
export function shownText(message: SlackMessage): string {
  if (message.text !== '') return message.text;
  for (const block of message.blocks ?? []) {
    const parsed = section.safeParse(block);
    if (parsed.success) return parsed.data.text.text;
  }
  return '';
}

/** The buttons a message carries, as label -> action_id, in order. */
export function buttonsOf(message: SlackMessage): { label: string; actionId: string }[] {
  return (message.blocks ?? []).flatMap((block) => {
    const parsed = actions.safeParse(block);
    return parsed.success
      ? parsed.data.elements.map((element) => ({ label: element.text.text, actionId: element.action_id }))
      : [];
  });
}

/** The bot's messages that carry files in a channel (or the replies in one thread), oldest first. */
export function results(slack: SlackFake, channel: string, threadTs?: string): SlackMessage[] {
  return slack.workspace
    .botMessages(slack.identity.botUserId, { channel, ...(threadTs === undefined ? {} : { threadTs }) })
    .filter((message) => message.fileIds.length > 0 && (threadTs === undefined || message.ts !== threadTs));
}

/** Presses the button with this label on a message, as `user`. */
export async function pressButton(slack: SlackFake, message: SlackMessage, label: string, user = 'U2') {
  const button = buttonsOf(message).find((candidate) => candidate.label === label);
  if (button === undefined)
    throw new Error(`no ${label} button on ${message.ts}: ${JSON.stringify(buttonsOf(message))}`);
  return slack.userPresses({ user, channel: message.channel, ts: message.ts, actionId: button.actionId });
}

/** The bot's message that carries a file. */
export function resultOf(slack: SlackFake, fileId: string): SlackMessage {
  const message = slack.workspace.messages.find((candidate) => candidate.fileIds.includes(fileId));
  if (message === undefined) throw new Error(`no message carries ${fileId}`);
  return message;
}
