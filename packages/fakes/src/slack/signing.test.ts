import { describe, expect, it } from 'vitest';
import { signatureHeaders, slackSignature } from './signing.js';

describe('slackSignature', () => {
  it("matches the example in Slack's signing documentation", () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('signs stale and invalid variants differently from the valid one', () => {
    const now = 1_700_000_000_000;
    const valid = signatureHeaders('s', '{}', 'valid', now);
    expect(valid['x-slack-request-timestamp']).toBe('1700000000');
    expect(signatureHeaders('s', '{}', 'invalid', now)['x-slack-signature']).not.toBe(valid['x-slack-signature']);
    expect(Number(signatureHeaders('s', '{}', 'stale', now)['x-slack-request-timestamp'])).toBeLessThan(
      1_700_000_000 - 300,
    );
  });
});
