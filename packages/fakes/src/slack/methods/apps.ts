import type { MethodSpec } from './types.js';

export const appMethods: Record<string, MethodSpec> = {
  'apps.connections.open': {
    token: 'app',
    handle: ({ env }) => ({ url: env.openSocketUrl() }),
  },
};
