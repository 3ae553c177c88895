/**
 * A Web API failure as Slack reports it: HTTP 200 with `{ ok: false, error }`. Method handlers throw
 * it; the router turns it into the response.
 */
export class SlackApiError extends Error {
  readonly code: string;
  readonly extra: Record<string, unknown>;

  constructor(code: string, extra: Record<string, unknown> = {}) {
    super(code);
    this.name = 'SlackApiError';
    this.code = code;
    this.extra = extra;
  }
}
