import type { DiscordModal } from '@genbot/fakes';
import { describe, expect, it } from 'vitest';
import { discordForm, slackForm } from './form-views.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const option = (text: string, value: string) => ({ text: plain(text), value });

describe('a form as the page draws it', () => {
  it('reads a Slack modal: its words, the actions block’s select sent at once, selects and text inputs with their initial values', () => {
    const view = {
      type: 'modal',
      title: plain('genbot settings'),
      submit: plain('Save'),
      close: plain('Cancel'),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'Settings for *this channel*' } },
        {
          type: 'actions',
          block_id: 'level',
          elements: [
            {
              type: 'static_select',
              action_id: 'level-switch',
              options: [option('This channel', 'channel'), option('The workspace', 'workspace')],
              initial_option: option('This channel', 'channel'),
            },
          ],
        },
        {
          type: 'input',
          block_id: 'chat_model',
          optional: true,
          label: plain('Chat model'),
          element: {
            type: 'static_select',
            action_id: 'value',
            options: [option('Inherit: a (default)', '-inherit-'), option('a', 'a'), option('b', 'b')],
            initial_option: option('b', 'b'),
          },
        },
        {
          type: 'input',
          block_id: 'system_prompt',
          optional: true,
          label: plain('System prompt'),
          hint: plain('Empty: inherit'),
          element: {
            type: 'plain_text_input',
            action_id: 'value',
            multiline: true,
            max_length: 3000,
            placeholder: plain('Inherit: the built-in prompt'),
          },
        },
      ],
    };
    expect(slackForm({ id: 'V1', view, history: [view, view] }, 'alice')).toEqual({
      id: 'V1',
      version: 2,
      person: 'alice',
      title: 'genbot settings',
      submit: 'Save',
      close: 'Cancel',
      parts: [
        { kind: 'text', text: 'Settings for *this channel*' },
        {
          kind: 'select',
          id: 'level-switch',
          label: '',
          required: true,
          options: [
            { label: 'This channel', value: 'channel' },
            { label: 'The workspace', value: 'workspace' },
          ],
          value: 'channel',
          acts: true,
        },
        {
          kind: 'select',
          id: 'chat_model',
          label: 'Chat model',
          required: false,
          options: [
            { label: 'Inherit: a (default)', value: '-inherit-' },
            { label: 'a', value: 'a' },
            { label: 'b', value: 'b' },
          ],
          value: 'b',
        },
        {
          kind: 'input',
          id: 'system_prompt',
          label: 'System prompt',
          hint: 'Empty: inherit',
          placeholder: 'Inherit: the built-in prompt',
          required: false,
          maxLength: 3000,
          multiline: true,
          value: '',
        },
      ],
    });
  });

  it('reads a Slack notice put in a form’s place: nothing to submit', () => {
    const view = { type: 'modal', title: plain('genbot settings'), close: plain('Close'), blocks: [] };
    expect(slackForm({ id: 'V2', view, history: [view] }, 'bob')).toMatchObject({ close: 'Close', parts: [] });
    expect(slackForm({ id: 'V2', view, history: [view] }, 'bob')).not.toHaveProperty('submit');
  });

  it('reads a Discord modal: its Text Displays, then its Labels’ selects and text inputs in order', () => {
    const modal: DiscordModal = {
      customId: 'gbs:chat:c:1',
      title: 'This channel: chat',
      texts: ['What is left to **inherit**…'],
      inputs: [
        {
          customId: 'system_prompt',
          inLabel: true,
          label: 'system_prompt',
          style: 2,
          required: false,
          minLength: 0,
          maxLength: 4000,
          value: 'Be brief.',
          placeholder: 'Empty: inherit',
          description: 'Set here: Be brief.',
        },
      ],
      selects: [
        {
          customId: 'chat_model',
          label: 'chat_model',
          options: [
            { label: 'Inherit: a (default)', value: '(inherit)', default: true },
            { label: 'b', value: 'b', default: false },
          ],
          minValues: 1,
          maxValues: 1,
          required: true,
          description: 'Inherited: a (default)',
        },
      ],
      order: ['chat_model', 'system_prompt'],
      closedBy: null,
    };
    expect(discordForm('42', 'alice', modal).parts).toEqual([
      { kind: 'text', text: 'What is left to **inherit**…' },
      {
        kind: 'select',
        id: 'chat_model',
        label: 'chat_model',
        hint: 'Inherited: a (default)',
        required: true,
        options: [
          { label: 'Inherit: a (default)', value: '(inherit)' },
          { label: 'b', value: 'b' },
        ],
        value: '(inherit)',
      },
      {
        kind: 'input',
        id: 'system_prompt',
        label: 'system_prompt',
        hint: 'Set here: Be brief.',
        placeholder: 'Empty: inherit',
        required: false,
        maxLength: 4000,
        multiline: true,
        value: 'Be brief.',
      },
    ]);
  });
});
