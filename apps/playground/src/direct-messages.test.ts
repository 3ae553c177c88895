import { describe, expect, it } from 'vitest';
import { homeBlocks, homeButtons } from './direct-messages.js';

describe('homeBlocks', () => {
  it('gives a section its button accessory, labelled on the button, and leaves other accessories out', () => {
    const blocks = homeBlocks({
      type: 'home',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: '*Settings*' },
          accessory: {
            type: 'button',
            action_id: 'genbot-settings-home',
            text: { type: 'plain_text', text: 'Workspace settings' },
          },
        },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'a picture' },
          accessory: { type: 'image', image_url: 'https://example.com/a.png', alt_text: 'a' },
        },
        { type: 'section', text: { type: 'mrkdwn', text: 'a menu' }, accessory: { type: 'overflow', options: [] } },
      ],
    });
    expect(blocks).toEqual([
      { type: 'section', text: '*Settings*', button: { label: 'Workspace settings', id: 'genbot-settings-home' } },
      { type: 'section', text: 'a picture' },
      { type: 'section', text: 'a menu' },
    ]);
    expect(homeButtons(blocks)).toEqual([{ label: 'Workspace settings', id: 'genbot-settings-home' }]);
  });

  it('has no buttons for a Home tab without accessories, or a view it cannot read', () => {
    expect(homeButtons(homeBlocks({ type: 'home', blocks: [{ type: 'divider' }] }))).toEqual([]);
    expect(homeBlocks({ type: 'home' })).toEqual([]);
  });
});
