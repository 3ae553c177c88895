import { describe, expect, it } from 'vitest';
import { formId, parseFormId } from './form-ids.js';

describe('form ids', () => {
  it('round-trips an Edit button’s form and a message command’s form', () => {
    const button = { kind: 'button', openedBy: '1300000000000000001', buttonId: 'gb1:e:AbCdEfGhIjKlMnOp' } as const;
    const message = { kind: 'message', openedBy: '1300000000000000002', messageId: '1300000000000000003' } as const;
    expect(parseFormId(formId(button))).toEqual(button);
    expect(parseFormId(formId(message))).toEqual(message);
    expect(formId(button).length).toBeLessThanOrEqual(100);
  });

  it('reads nothing from ids it did not make', () => {
    for (const id of ['', 'gbf', 'gbf:123', 'gbf:abc:gb1:e:x', 'gbm:123:not-a-message', 'xyz:1:2', 'gbm:1:']) {
      expect(parseFormId(id)).toBeUndefined();
    }
  });
});
