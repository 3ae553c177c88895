import type { DiscordFake, DiscordInteraction, DiscordMessage } from '@genbot/fakes';
import { z } from 'zod';

/** The buttons a message carries, as the fake stored them (action rows of buttons). */
const rows = z.array(
  z.object({ components: z.array(z.object({ custom_id: z.string().optional(), label: z.string().optional() })) }),
);

export interface ShownButton {
  id: string;
  label: string;
}

export function buttonsOf(message: DiscordMessage): ShownButton[] {
  return rows
    .parse(message.components)
    .flatMap((row) => row.components.map((button) => ({ id: button.custom_id ?? '', label: button.label ?? '' })));
}

export function labelsOf(message: DiscordMessage): string[] {
  return buttonsOf(message).map((button) => button.label);
}

/** The interaction's original response once it holds a result: images and buttons. */
export function resultOf(fake: DiscordFake, started: DiscordInteraction, timeoutMs = 15_000): Promise<DiscordMessage> {
  return fake.waitFor((state) => {
    const current = state.interaction(started.id);
    if (current?.originalMessageId == null) return undefined;
    const message = state.message(current.channelId, current.originalMessageId);
    return message !== undefined && message.attachments.length > 0 && message.components.length > 0
      ? message
      : undefined;
  }, timeoutMs);
}

/** The original response's text once it is something other than its progress lines. */
export function answerOf(fake: DiscordFake, started: DiscordInteraction, isProgress: (text: string) => boolean) {
  return fake.waitFor((state) => {
    const current = state.interaction(started.id);
    if (current?.originalMessageId == null) return undefined;
    const text = state.message(current.channelId, current.originalMessageId)?.content ?? '';
    return text !== '' && !isProgress(text) ? text : undefined;
  }, 15_000);
}

/** A person presses the button with this label on the message. */
export function press(fake: DiscordFake, user: string, message: DiscordMessage, label: string): DiscordInteraction {
  const button = buttonsOf(message).find((candidate) => candidate.label === label);
  if (button === undefined) throw new Error(`no ${label} button on message ${message.id}`);
  return fake.userClicks({ user, channelId: message.channelId, messageId: message.id, customId: button.id });
}

/** Waits for the bot's first answer to an interaction. */
export function answered(fake: DiscordFake, started: DiscordInteraction): Promise<DiscordInteraction> {
  return fake.waitFor((state) => {
    const current = state.interaction(started.id);
    return current?.status === 'acknowledged' ? current : undefined;
  });
}

/** The text of an interaction's original response (an ephemeral answer included). */
export function originalText(fake: DiscordFake, interaction: DiscordInteraction): string | undefined {
  return interaction.originalMessageId === null
    ? undefined
    : fake.state.message(interaction.channelId, interaction.originalMessageId)?.content;
}
