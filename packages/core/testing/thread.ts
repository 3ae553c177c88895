import type { AttachmentRef, Author, ThreadMessage } from '../src/surface/surface.js';

export const bot: Author = { id: 'B1', name: 'genbot', isBot: true, isSelf: true };
export const alice: Author = { id: 'U1', name: 'Alice', isBot: false, isSelf: false };
export const bob: Author = { id: 'U2', name: 'Bob', isBot: false, isSelf: false };
export const otherBot: Author = { id: 'B2', name: 'Weather', isBot: true, isSelf: false };

let counter = 0;

export function message(author: Author, text: string, attachments: AttachmentRef[] = []): ThreadMessage {
  counter += 1;
  return { id: `msg${counter}`, author, text, attachments };
}
