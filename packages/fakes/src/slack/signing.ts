import { createHmac } from 'node:crypto';

/** `valid`, a wrong secret (`invalid`), or a correct signature over a timestamp older than Slack's 5-minute window (`stale`). */
export type SignatureMode = 'valid' | 'invalid' | 'stale';

const STALE_SECONDS = 6 * 60;

/** `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}`, Slack's request signature. */
export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export function signatureHeaders(
  secret: string,
  body: string,
  mode: SignatureMode = 'valid',
  nowMs = Date.now(),
): Record<string, string> {
  const now = Math.floor(nowMs / 1000);
  const timestamp = mode === 'stale' ? now - STALE_SECONDS : now;
  const key = mode === 'invalid' ? `${secret}-not` : secret;
  return {
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(key, timestamp, body),
  };
}
