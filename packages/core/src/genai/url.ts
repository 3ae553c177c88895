/**
 * Joins a service path onto a base URL that may carry a path prefix
 * (`https://gw.example.com/proxy` or `.../proxy/`): the prefix is kept and the
 * slash between them is neither lost nor doubled.
 */
export interface ServiceEndpoint {
  /** `scheme://host:port`, what the connection pool is bound to. */
  origin: string;
  /** The prefix path without a trailing slash (`''` when there is none). */
  prefix: string;
}

export function parseBaseUrl(baseUrl: string): ServiceEndpoint {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('The service base URL is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('The service base URL must use http or https.');
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

/** `path` starts with a slash; the result is the request path for the origin's pool. */
export function joinPath(endpoint: ServiceEndpoint, path: string): string {
  return `${endpoint.prefix}/${path.replace(/^\/+/, '')}`;
}

export function generateContentPath(model: string): string {
  return `/v1beta/models/${encodeURIComponent(model)}:generateContent`;
}

export const MESSAGES_PATH = '/v1/messages';
