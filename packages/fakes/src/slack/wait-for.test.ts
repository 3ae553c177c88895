import { describe, expect, it } from 'vitest';
import { SlackIds } from './ids.js';
import { waitFor } from './wait-for.js';
import { SlackWorkspace } from './workspace.js';

describe('waitFor', () => {
  it('resolves once the probe holds and the workspace stayed quiet', async () => {
    const ws = new SlackWorkspace('T1', new SlackIds());
    const message = ws.post({ channel: 'C1', user: 'UBOT', botId: 'B', text: 'a' });
    const started = Date.now();
    const edits = setInterval(() => ws.update(message, { text: `${message.text}a` }), 10);
    setTimeout(() => clearInterval(edits), 100);
    const text = await waitFor(ws, (w) => w.message('C1', message.ts)?.text, { quietMs: 60 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(text).toBe(message.text);
  });

  it('rejects after the timeout', async () => {
    const ws = new SlackWorkspace('T1', new SlackIds());
    await expect(waitFor(ws, () => false, { timeoutMs: 50 })).rejects.toThrow(/timed out/);
  });
});
