import { describe, expect, it } from 'vitest';
import {
  ModelNotFoundError,
  ServiceAuthError,
  ServiceFailedError,
  ServiceOverloadedError,
  ServiceRateLimitedError,
  ServiceRejectedError,
} from './errors.js';
import { httpError, serviceFailure } from './http-error.js';

const context = {
  operation: 'image' as const,
  model: 'img-1',
  scrub: (t: string) => t.split('sekrit').join('[REDACTED]'),
};

describe('httpError', () => {
  it('reads the generate-content error body', () => {
    const body = JSON.stringify({
      error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED', details: [] },
    });
    const error = httpError(429, { 'retry-after': '2', 'x-request-id': 'r1' }, body, context);
    expect(error).toBeInstanceOf(ServiceRateLimitedError);
    expect(error).toMatchObject({
      status: 429,
      type: 'RESOURCE_EXHAUSTED',
      retryable: true,
      retryAfterSeconds: 2,
      requestId: 'r1',
      operation: 'image',
      model: 'img-1',
    });
    expect(error.message).toContain('Resource has been exhausted');
  });

  it('reads the messages error body', () => {
    const body = JSON.stringify({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_9',
    });
    const error = httpError(529, {}, body, context);
    expect(error).toBeInstanceOf(ServiceOverloadedError);
    expect(error).toMatchObject({
      status: 529,
      type: 'overloaded_error',
      retryable: true,
      requestId: 'req_9',
    });
  });

  it('copes with bodies of no known shape, and scrubs them', () => {
    const gateway = httpError(502, {}, '<html>Bad gateway</html>', context);
    expect(gateway).toBeInstanceOf(ServiceFailedError);
    expect(gateway).toMatchObject({ type: 'http_502', retryable: true });
    const weird = httpError(400, {}, '{"weird":true}', context);
    expect(weird).toBeInstanceOf(ServiceRejectedError);
    expect(weird).toMatchObject({ type: 'http_400', retryable: false });
    expect(httpError(401, {}, 'key sekrit is wrong', context).message).not.toContain('sekrit');
  });

  it('reads the start of a body cut short (a long error page read only so far)', () => {
    const error = httpError(500, {}, `<html>${'x'.repeat(8_000)}`, context);
    expect(error).toBeInstanceOf(ServiceFailedError);
    expect(error.message.length).toBeLessThan(400);
  });

  it("tells generate-content's invalid key (400 INVALID_ARGUMENT) by its detail's reason", () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }, 'odd'],
      },
    });
    expect(httpError(400, {}, body, context)).toBeInstanceOf(ServiceAuthError);
  });
});

describe('serviceFailure', () => {
  it('reads a kind from a status, a service error type, or both', () => {
    expect(serviceFailure('x', { status: 404 })).toBeInstanceOf(ModelNotFoundError);
    expect(serviceFailure('x', { serviceType: 'not_found_error' })).toBeInstanceOf(ModelNotFoundError);
    expect(serviceFailure('x', { serviceType: 'rate_limit_error' })).toBeInstanceOf(ServiceRateLimitedError);
    expect(serviceFailure('x', { status: 503 })).toBeInstanceOf(ServiceOverloadedError);
    expect(serviceFailure('x', { serviceType: 'permission_error' })).toBeInstanceOf(ServiceAuthError);
    expect(serviceFailure('x', { serviceType: 'invalid_request_error' })).toBeInstanceOf(ServiceRejectedError);
    expect(serviceFailure('x', { serviceType: 'api_error' })).toBeInstanceOf(ServiceFailedError);
    expect(serviceFailure('x', { serviceType: 'something_new' })).toBeInstanceOf(ServiceFailedError);
  });
});
