import { startEmulator, type Emulator } from '@genbot/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChatProxy, type ChatProxy } from './chat-proxy.js';

const TOOLS = [{ name: 'generate_image', input_schema: { type: 'object' } }];

let emulator: Emulator;
let proxy: ChatProxy;

beforeEach(async () => {
  emulator = await startEmulator({ streamDelayMs: 0 });
  proxy = await startChatProxy(emulator.url);
});

afterEach(async () => {
  await proxy.close();
  await emulator.close();
});

async function messages(body: object): Promise<void> {
  const response = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'key', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 200, stream: true, tools: TOOLS, ...body }),
  });
  await response.text();
}

describe('startChatProxy: exchanges', () => {
  it('stamps each messages request with its tag, its stop reason and when its stream ended', async () => {
    await messages({ messages: [{ role: 'user', content: 'draw a fox #m7' }] });
    const [exchange] = proxy.exchanges;
    expect(exchange).toMatchObject({ kind: 'messages', tag: 'm7', stopReason: 'tool_use', toolResults: false });
    expect(exchange?.endedAt).toBeGreaterThanOrEqual(exchange?.receivedAt ?? Number.POSITIVE_INFINITY);
  });

  it('tells a request answering tool calls from the one that asked', async () => {
    await messages({
      messages: [
        { role: 'user', content: 'draw a fox #m8' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'generate_image', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Posted 1 image' }] },
      ],
    });
    expect(proxy.exchanges).toEqual([
      expect.objectContaining({ tag: 'm8', stopReason: 'end_turn', toolResults: true }),
    ]);
  });
});
