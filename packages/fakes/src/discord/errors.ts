/** A Discord-shaped JSON error: `{ code, message, errors? }` with the HTTP status Discord uses. */
export class DiscordHttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 413 | 429 | 500,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DiscordHttpError';
  }

  toJSON(): Record<string, unknown> {
    return {
      message: this.message,
      code: this.code,
      ...(this.errors === undefined ? {} : { errors: this.errors }),
    };
  }
}

export const unknownChannel = (): DiscordHttpError => new DiscordHttpError(404, 10003, 'Unknown Channel');
export const unknownMessage = (): DiscordHttpError => new DiscordHttpError(404, 10008, 'Unknown Message');
export const unknownGuild = (): DiscordHttpError => new DiscordHttpError(404, 10004, 'Unknown Guild');
export const unknownMember = (): DiscordHttpError => new DiscordHttpError(404, 10007, 'Unknown Member');
export const unknownWebhook = (): DiscordHttpError => new DiscordHttpError(404, 10015, 'Unknown Webhook');
export const unknownInteraction = (): DiscordHttpError => new DiscordHttpError(404, 10062, 'Unknown interaction');
export const missingAccess = (): DiscordHttpError => new DiscordHttpError(403, 50001, 'Missing Access');

/** One field error in Discord's nested `errors` shape: `{ field: { _errors: [{ code, message }] } }`. */
export function invalidFormBody(path: readonly (string | number)[], code: string, message: string): DiscordHttpError {
  let errors: Record<string, unknown> = { _errors: [{ code, message }] };
  for (const key of [...path].reverse()) errors = { [String(key)]: errors };
  return new DiscordHttpError(400, 50035, 'Invalid Form Body', errors);
}
