import { describe, expect, it } from 'vitest';
import { httpError } from './http-error.js';

const context = { operation: 'image' as const, model: 'img-1', scrub: (t: string) => t.split('sekrit').join('[REDACTED]') };

describe('httpError', () => {
  it('reads the generate-content error body', () => {
    const body = JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED', details: [] } });
    const error = httpError(429, { 'retry-after': '2', 'x-request-id': 'r1' }, body, context);
    expect(error).toMatchObject({
      status: 429,
      errorType: 'RESOURCE_EXHAUSTED',
      retryable: true,
      retryAfterSeconds: 2,
      requestId: 'r1',
      operation: 'image',
      model: 'img-1',
    });
    expect(error.message).toContain('Resource has been exhausted');
  });

  it('reads the messages error body', () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_9' });
    expect(httpError(529, {}, body, context)).toMatchObject({ status: 529, errorType: 'overloaded_error', retryable: true, requestId: 'req_9' });
  });

  it('copes with bodies of no known shape, and scrubs them', () => {
    expect(httpError(502, {}, '<html>Bad gateway</html>', context)).toMatchObject({ errorType: 'http_502', retryable: true });
    expect(httpError(400, {}, '{"weird":true}', context)).toMatchObject({ errorType: 'http_400', retryable: false });
    expect(httpError(401, {}, 'key sekrit is wrong', context).message).not.toContain('sekrit');
  });
});
