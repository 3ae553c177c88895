import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createRestAgent } from './rest-agent.js';

describe('createRestAgent', () => {
  it("comes from the undici that discord.js's REST loads, not from whichever the process has", async () => {
    const fromApp = createRequire(import.meta.url);
    const fromRest = createRequire(createRequire(fromApp.resolve('discord.js')).resolve('@discordjs/rest'));
    const { Agent } = fromRest('undici') as { Agent: abstract new () => object };
    const agent = createRestAgent();
    expect(agent).toBeInstanceOf(Agent);
    await agent.close();
  });
});
