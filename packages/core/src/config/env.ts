import { ConfigError } from './config-error.js';

/**
 * Reading one environment variable into a type, with the same rules wherever a variable is read:
 * core reads its own here, and each app reads its platform's settings with the same functions.
 */

export type Env = Readonly<Record<string, string | undefined>>;

function invalid(variable: string, problem: string): ConfigError {
  return new ConfigError(`${variable} ${problem}`, { variable });
}

/** Empty counts as unset: `FOO=` in a .env file means "no value". */
export function envString(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** A comma-separated list; blanks around and between items are dropped, as are repeats. */
export function envList(env: Env, name: string): string[] {
  const value = envString(env, name);
  if (value === undefined) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

/** The error for a variable that something needs and that is unset; `why` says what needs it. */
export function missingEnv(name: string, why: string): ConfigError {
  return invalid(name, `is required ${why}`);
}

/** Throws, naming the variable, when it is unset; `why` says what needs it. */
export function requiredEnvString(env: Env, name: string, why: string): string {
  const value = envString(env, name);
  if (value === undefined) throw missingEnv(name, why);
  return value;
}

/** An http:// or https:// address. */
export function envUrl(env: Env, name: string, fallback: string): string;
export function envUrl(env: Env, name: string): string | undefined;
export function envUrl(env: Env, name: string, fallback?: string): string | undefined {
  const value = envString(env, name);
  if (value === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalid(name, 'is not a valid URL (expected http:// or https://).');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(name, 'must be an http:// or https:// URL.');
  }
  return value;
}

/** A whole number within `min`-`max`; `what` names the unit in the message. */
export function envInteger(
  env: Env,
  name: string,
  range: { fallback: number; min: number; max: number; what: string },
): number {
  const value = envString(env, name);
  if (value === undefined) return range.fallback;
  if (!/^\d+$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
    throw invalid(name, `must be ${range.what} (${range.min}-${range.max}).`);
  }
  return Number(value);
}

/** A port to listen on; 0 picks a free one. */
export function envPort(env: Env, name: string, fallback: number): number {
  return envInteger(env, name, { fallback, min: 0, max: 65_535, what: 'a port number' });
}

/** One of a fixed set of words; with `ignoreCase`, `DEBUG` reads as `debug`. */
export function envChoice<const T extends string>(
  env: Env,
  name: string,
  choices: readonly T[],
  options: { fallback: T; ignoreCase?: boolean },
): T {
  const raw = envString(env, name) ?? options.fallback;
  const value = options.ignoreCase === true ? raw.toLowerCase() : raw;
  const choice = choices.find((candidate) => candidate === value);
  if (choice === undefined) throw invalid(name, `must be one of: ${choices.join(', ')}.`);
  return choice;
}
