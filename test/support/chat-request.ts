import type { MessagesRequest } from '@genbot/core/genai';
import type { Emulator } from '@genbot/emulator';
import { eventually } from '@genbot/test-servers';

/** The messages request whose last turn contains `marker`, once the emulator has it. */
export function chatRequestWith(emulator: Emulator, marker: string): Promise<MessagesRequest> {
  return eventually(
    () =>
      emulator.requests
        .filter((request) => request.path.endsWith('/v1/messages'))
        .map((request) => request.body as MessagesRequest)
        .find((body) => JSON.stringify(body.messages.at(-1)).includes(marker)),
    { timeoutMs: 30_000, what: `a messages request with ${marker}` },
  );
}
