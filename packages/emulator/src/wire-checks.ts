export type CredentialStyle = 'x-goog-api-key' | 'bearer' | 'x-api-key';

export const CREDENTIAL_HEADER: Record<CredentialStyle, string> = {
  'x-goog-api-key': 'x-goog-api-key: <key>',
  bearer: 'Authorization: Bearer <key>',
  'x-api-key': 'x-api-key: <key>',
};

export type CredentialCheck =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'wrong-style' | 'wrong-key'; message: string };

export interface CredentialPolicy {
  apiKey: string | undefined;
  relax: boolean;
}

/** Every non-empty credential the request carries, by style; a non-Bearer Authorization counts as 'other'. */
function presented(headers: Record<string, string>): Map<CredentialStyle | 'other', string> {
  const found = new Map<CredentialStyle | 'other', string>();
  const google = headers['x-goog-api-key']?.trim();
  const anthropic = headers['x-api-key']?.trim();
  const authorization = headers.authorization?.trim();
  if (google) found.set('x-goog-api-key', google);
  if (anthropic) found.set('x-api-key', anthropic);
  if (authorization) {
    const bearer = /^Bearer\s+(\S.*)$/i.exec(authorization)?.[1];
    found.set(bearer === undefined ? 'other' : 'bearer', bearer ?? authorization);
  }
  return found;
}

/**
 * The real service accepts exactly one credential style per operation; `relax` accepts any of the
 * three (the official SDKs send their own headers) but still checks the key.
 */
export function checkCredentials(
  headers: Record<string, string>,
  required: CredentialStyle,
  policy: CredentialPolicy,
): CredentialCheck {
  const credentials = presented(headers);
  if (credentials.size === 0) {
    return { ok: false, reason: 'missing', message: `No credentials: expected header ${CREDENTIAL_HEADER[required]}.` };
  }
  if (!policy.relax) {
    const others = [...credentials.keys()].filter((style) => style !== required);
    if (!credentials.has(required) || others.length > 0) {
      return {
        ok: false,
        reason: 'wrong-style',
        message: `Request had invalid authentication credentials: this operation expects only ${CREDENTIAL_HEADER[required]}, got ${[...credentials.keys()].join(', ')}.`,
      };
    }
  } else if (credentials.has('other')) {
    return {
      ok: false,
      reason: 'wrong-style',
      message: 'Request had invalid authentication credentials: unsupported Authorization scheme.',
    };
  }
  if (policy.apiKey !== undefined && [...credentials.values()].some((key) => key !== policy.apiKey)) {
    return { ok: false, reason: 'wrong-key', message: 'API key not valid. Please pass a valid API key.' };
  }
  return { ok: true };
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** Subtrees whose keys are the caller's own names (JSON schemas), not API fields. */
const FREE_FORM = new Set(['responseSchema', 'responseJsonSchema']);

/** The first snake_case field name in a generate-content body, with Google's path notation. */
export function findSnakeCaseField(value: unknown, at = ''): { name: string; at: string } | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findSnakeCaseField(item, `${at}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [name, child] of Object.entries(value)) {
    if (SNAKE_CASE.test(name)) return { name, at };
    if (FREE_FORM.has(name)) continue;
    const found = findSnakeCaseField(child, at === '' ? name : `${at}.${name}`);
    if (found) return found;
  }
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard padded Base64, as the service's JSON mapping of `bytes` expects; never a data URL. */
export function base64Problem(data: string): string | undefined {
  if (data.startsWith('data:')) {
    return 'Invalid value at inlineData.data: Base64 data must not carry a data URL prefix ("data:...;base64,").';
  }
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) {
    return 'Invalid value at inlineData.data (TYPE_BYTES): Base64 decoding failed.';
  }
  return undefined;
}
