import { describe, expect, it } from 'vitest';
import { deliveryKind, webApiMethod } from './delivery-metrics.js';

describe('deliveryKind', () => {
  it('names events by type, slash commands as command, interactivity by payload type, the rest other', () => {
    expect(deliveryKind({ type: 'event_callback', event: { type: 'app_mention' } })).toBe('app_mention');
    expect(deliveryKind({ type: 'event_callback', event: { type: 'message', subtype: 'message_deleted' } })).toBe(
      'message',
    );
    expect(deliveryKind({ command: '/imagine', text: 'a kite' })).toBe('command');
    expect(deliveryKind({ type: 'block_actions', actions: [] })).toBe('block_actions');
    expect(deliveryKind({ type: 'event_callback', event: { type: 'reaction_added' } })).toBe('other');
    expect(deliveryKind('not an object')).toBe('other');
  });
});

describe('webApiMethod', () => {
  it('reads the method from the URL the Web API client called', () => {
    expect(webApiMethod('https://slack.com/api/chat.update')).toBe('chat.update');
    expect(webApiMethod('http://127.0.0.1:4000/api/users.info?user=U1')).toBe('users.info');
  });
});
