import { describe, expect, it } from 'vitest';
import { actionRows } from './action-rows.js';

const button = (id: string) => ({ id, label: id });

describe('actionRows', () => {
  it('puts one image’s four buttons in one row, as secondary buttons with their ids', () => {
    expect(actionRows(['r', 'v', 'e', 'u'].map(button))).toEqual([
      {
        type: 1,
        components: ['r', 'v', 'e', 'u'].map((id) => ({ type: 2, style: 2, custom_id: id, label: id })),
      },
    ]);
  });

  it('fills rows of five in order, so four images make two rows', () => {
    const ids = ['r', 'v1', 'v2', 'v3', 'v4', 'e1', 'e2', 'e3', 'e4', 'u'];
    expect(actionRows(ids.map(button)).map((row) => row.components.map((component) => component.custom_id))).toEqual([
      ['r', 'v1', 'v2', 'v3', 'v4'],
      ['e1', 'e2', 'e3', 'e4', 'u'],
    ]);
  });

  it('makes no row for no buttons and refuses more than a message takes', () => {
    expect(actionRows([])).toEqual([]);
    expect(() => actionRows(Array.from({ length: 26 }, (_, index) => button(String(index))))).toThrow(/25 at most/);
  });
});
