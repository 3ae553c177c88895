import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SlackEnv } from './env.js';

/** Slack lets an app use a response_url 5 times within 30 minutes. */
const MAX_USES = 5;
const LIFETIME_MS = 30 * 60 * 1000;

const commandResponse = z.object({
  text: z.string().optional(),
  blocks: z.array(z.unknown()).optional(),
  response_type: z.enum(['ephemeral', 'in_channel']).optional(),
  thread_ts: z.string().optional(),
  replace_original: z.boolean().optional(),
  delete_original: z.boolean().optional(),
});

export type CommandResponse = z.output<typeof commandResponse>;

interface Grant {
  channel: string;
  user: string;
  uses: number;
  expiresAtMs: number;
}

function text(body: string, status: number): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/**
 * The `response_url` of slash commands, and what an acknowledgement body or a POST to it does:
 * `in_channel` becomes a bot message in the channel, anything else an ephemeral message to the user.
 */
export class ResponseUrls {
  readonly #env: SlackEnv;
  readonly #grants = new Map<string, Grant>();

  constructor(env: SlackEnv) {
    this.#env = env;
  }

  issue(channel: string, user: string): string {
    const id = this.#env.workspace.nextId('', 12);
    const secret = randomBytes(18).toString('base64url');
    this.#grants.set(`${id}/${secret}`, { channel, user, uses: 0, expiresAtMs: Date.now() + LIFETIME_MS });
    return `${this.#env.render.baseUrl}commands/${this.#env.identity.teamId}/${id}/${secret}`;
  }

  async handle(key: string, request: Request): Promise<Response> {
    const grant = this.#grants.get(key);
    if (!grant) return text('invalid_token', 404);
    if (Date.now() > grant.expiresAtMs) return text('expired_url', 404);
    if (grant.uses >= MAX_USES) return text('used_url', 404);
    const parsed = commandResponse.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) return text('invalid_payload', 400);
    if (parsed.data.text === undefined && parsed.data.blocks === undefined && parsed.data.delete_original !== true) {
      return text('no_text', 400);
    }
    grant.uses += 1;
    this.apply(grant.channel, grant.user, parsed.data, 'response_url');
    return text('ok', 200);
  }

  /** What a command's acknowledgement carried: nothing, plain text, or a JSON message. */
  applyAck(channel: string, user: string, response: unknown): void {
    let body = response;
    if (typeof body === 'string') {
      if (body.trim() === '') return;
      try {
        body = JSON.parse(body);
      } catch {
        body = { text: body };
      }
    }
    const parsed = commandResponse.safeParse(body);
    if (parsed.success && (parsed.data.text !== undefined || parsed.data.blocks !== undefined)) {
      this.apply(channel, user, parsed.data, 'command_ack');
    }
  }

  apply(channel: string, user: string, response: CommandResponse, source: 'response_url' | 'command_ack'): void {
    const { workspace, identity } = this.#env;
    const content = {
      text: response.text ?? '',
      ...(response.blocks !== undefined && { blocks: response.blocks }),
      ...(response.thread_ts !== undefined && { threadTs: response.thread_ts }),
    };
    if (response.response_type === 'in_channel') {
      const message = workspace.post({ channel, user: identity.botUserId, botId: identity.botId, ...content });
      this.#env.botPosted(message);
    } else {
      workspace.addEphemeral({ channel, user, source, ...content });
    }
  }
}
