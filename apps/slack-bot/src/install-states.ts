import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InstallationStore as InstallationPort } from '@genbot/core/store';
import type { InstallURLOptions, StateStore } from '@slack/bolt';
import { InvalidStateError } from '@slack/oauth';
import { z } from 'zod';

/** How long a person has between the install link and coming back from Slack (Bolt's default too). */
export const STATE_TTL_MS = 10 * 60_000;

/** Why a state was refused, for the page that says so. */
export type StateRefusal = 'forged' | 'expired' | 'used';

/** Bolt's InvalidStateError, saying which of the three it was. */
export class StateRefusedError extends InvalidStateError {
  readonly refusal: StateRefusal;

  constructor(refusal: StateRefusal) {
    super(`install state refused (${refusal})`);
    this.refusal = refusal;
  }
}

const installOptions = z.object({
  scopes: z.array(z.string()),
  userScopes: z.array(z.string()).optional(),
  redirectUri: z.string().optional(),
  teamId: z.string().optional(),
  metadata: z.string().optional(),
});

/**
 * Install states that are good once, on any process: each is a random ID
 * with its expiry, signed with SLACK_STATE_SECRET (a forged or altered one is
 * refused without a look-up), and recorded in the store, whose `takeState`
 * hands it out once. Bolt's own state store is stateless: the same state
 * would install again for its 10 minutes.
 */
export class OneUseStateStore implements StateStore {
  readonly #store: Pick<InstallationPort, 'putState' | 'takeState'>;
  readonly #secret: string;
  readonly #now: () => Date;

  constructor(options: {
    store: Pick<InstallationPort, 'putState' | 'takeState'>;
    stateSecret: string;
    now?: () => Date;
  }) {
    this.#store = options.store;
    this.#secret = options.stateSecret;
    this.#now = options.now ?? (() => new Date());
  }

  async generateStateParam(options: InstallURLOptions, now: Date): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    const expiresAt = now.getTime() + STATE_TTL_MS;
    const signed = `${id}.${expiresAt}`;
    await this.#store.putState(id, new Date(expiresAt), JSON.stringify(options));
    return `${signed}.${this.#sign(signed)}`;
  }

  async verifyStateParam(_now: Date, state: string): Promise<InstallURLOptions> {
    const [id, expiresAt, signature, ...rest] = state.split('.');
    if (id === undefined || expiresAt === undefined || signature === undefined || rest.length > 0) {
      throw new StateRefusedError('forged');
    }
    const expected = Buffer.from(this.#sign(`${id}.${expiresAt}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new StateRefusedError('forged');
    if (Number(expiresAt) <= this.#now().getTime()) throw new StateRefusedError('expired');
    const payload = await this.#store.takeState(id);
    if (payload === undefined) throw new StateRefusedError('used');
    return installOptions.parse(JSON.parse(payload));
  }

  #sign(text: string): string {
    return createHmac('sha256', this.#secret).update(text).digest('base64url');
  }
}
