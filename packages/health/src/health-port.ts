import { type Env, envPort, envString } from '@genbot/core/config';

/**
 * HEALTH_PORT: undefined when unset (nothing is served); a ConfigError naming the
 * variable when it is not a port. 0 picks a free port, as tests do.
 */
export function healthPortFromEnv(env: Env): number | undefined {
  return envString(env, 'HEALTH_PORT') === undefined ? undefined : envPort(env, 'HEALTH_PORT', 0);
}
