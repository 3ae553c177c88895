import {
  ModelNotFoundError,
  NoOutputError,
  SafetyStopError,
  ServiceAuthError,
  ServiceOverloadedError,
  UsageError,
} from '@genbot/core/errors';
import { describe, expect, it } from 'vitest';
import { failureFor } from './exit-codes.js';

describe('failureFor', () => {
  it('maps a usage error to 2', () => {
    expect(failureFor(new UsageError('bad ratio'))).toEqual({ code: 2, message: 'genbot: bad ratio' });
  });

  it('maps a safety block to 3 with its reasons', () => {
    const err = new NoOutputError('The service returned no image: finish reason IMAGE_SAFETY.', {
      wanted: 'image',
      candidates: [
        {
          index: 0,
          finishReason: 'IMAGE_SAFETY',
          safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', blocked: true }],
        },
      ],
    });
    const failure = failureFor(err);
    expect(failure.code).toBe(3);
    expect(failure.message).toBe(
      'genbot: blocked for safety: The service returned no image: finish reason IMAGE_SAFETY. ' +
        '(blocked categories: HARM_CATEGORY_HARASSMENT)',
    );
  });

  it('maps an empty answer to 3 without claiming a safety block', () => {
    const err = new NoOutputError('The service returned no text: no candidates.', { wanted: 'text' });
    expect(failureFor(err)).toEqual({ code: 3, message: 'genbot: The service returned no text: no candidates.' });
  });

  it('maps a service error to 4 with status, type, message and the retry hint', () => {
    const err = new ServiceOverloadedError('The service is unavailable.', { status: 503, serviceType: 'UNAVAILABLE' });
    expect(failureFor(err)).toEqual({
      code: 4,
      message: 'genbot: the service failed: 503 UNAVAILABLE: The service is unavailable. (retrying may help)',
    });
  });

  it('omits a missing status (mid-stream error, timeout)', () => {
    const err = new ServiceOverloadedError('Overloaded', { serviceType: 'overloaded_error' });
    expect(failureFor(err).message).toBe(
      'genbot: the service failed: overloaded_error: Overloaded (retrying may help)',
    );
  });

  it('names what to change for an unknown model or a refused key, as the bots do', () => {
    const model = new ModelNotFoundError('HTTP 404 NOT_FOUND: no such model', {
      status: 404,
      serviceType: 'NOT_FOUND',
      serviceMessage: 'no such model',
      operation: 'text',
      model: 'gemini-9',
    });
    expect(failureFor(model)).toEqual({
      code: 4,
      message: 'genbot: the service failed: 404 NOT_FOUND: no such model (check TEXT_MODEL)',
    });
    const key = new ServiceAuthError('HTTP 401 authentication_error', { status: 401, operation: 'messages' });
    expect(failureFor(key).message).toContain('check GENAI_API_KEY');
  });

  it('maps a reply stopped for safety to 3, its reason on stderr', () => {
    const err = new SafetyStopError({ text: 'The start', reason: 'SAFETY' });
    expect(failureFor(err)).toEqual({
      code: 3,
      message:
        'genbot: stopped for safety, the reply is incomplete: The service stopped the reply for safety (SAFETY).',
    });
  });

  it('keeps anything else to one line with exit 1', () => {
    expect(failureFor(new Error('ENOSPC: no space left'))).toEqual({
      code: 1,
      message: 'genbot: unexpected error: ENOSPC: no space left',
    });
  });
});
