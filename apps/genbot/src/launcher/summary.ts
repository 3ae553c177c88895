import type { CoreConfig } from '@genbot/core/config';
import type { OpenService } from '../service.js';
import type { StoreConnection } from '../wiring/store-connection.js';

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

/** The start-up line about the database: which one, or why it is not reachable yet. */
export function databaseLine(connection: StoreConnection): string {
  const { display, problem } = connection;
  return display === undefined
    ? `Database: not reachable yet, new requests are refused until it is (${problem ?? 'unknown'})`
    : `Database: ${display}`;
}

/** The start-up lines about the content-generation service. */
export function serviceLines(service: OpenService, core: CoreConfig): string[] {
  return [
    `Service: ${describeService(service)}`,
    `Models: chat ${core.service.chatModel}, images ${core.service.imageModel}`,
  ];
}
