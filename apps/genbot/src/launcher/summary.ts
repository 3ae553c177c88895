import type { OpenService } from '../service.js';

/** Where the service is, for the start-up summary: origin and path only, never credentials or a query. */
export function describeService(service: Pick<OpenService, 'baseUrl' | 'emulated'>): string {
  if (service.emulated) return `offline emulator at ${service.baseUrl} (GENAI_BASE_URL is unset)`;
  return safeBase(service.baseUrl);
}

export function safeBase(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return '(invalid GENAI_BASE_URL)';
  }
}
