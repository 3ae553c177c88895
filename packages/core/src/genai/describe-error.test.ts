import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error.js';
import {
  ModelNotFoundError,
  SafetyStopError,
  ServiceAuthError,
  ServiceFailedError,
  ServiceOverloadedError,
  ServiceRateLimitedError,
  ServiceTimeoutError,
  StreamCutError,
} from './errors.js';
import { UsageError } from '../errors.js';
import { noOutputError } from './no-output.js';

describe('describeError', () => {
  it('names the model and its variable on 404', () => {
    expect(describeError(new ModelNotFoundError('detail', { status: 404, operation: 'image', model: 'x' }))).toEqual({
      summary: "The image service does not know the model 'x': check IMAGE_MODEL.",
      retryable: false,
    });
    expect(
      describeError(new ModelNotFoundError('detail', { status: 404, operation: 'messages', model: 'c' })).summary,
    ).toContain('CHAT_MODEL');
  });

  it('explains overload, rate limits, credentials, timeouts and cut streams', () => {
    expect(describeError(new ServiceOverloadedError('detail', { status: 529, operation: 'image' }))).toEqual({
      summary: 'The image service is overloaded right now. Try again in a minute.',
      retryable: true,
    });
    expect(describeError(new ServiceOverloadedError('detail', { operation: 'messages' })).summary).toContain(
      'chat service is overloaded',
    );
    expect(describeError(new ServiceRateLimitedError('detail', { status: 429, operation: 'text' })).retryable).toBe(
      true,
    );
    expect(describeError(new ServiceAuthError('detail', { status: 401 })).summary).toContain('GENAI_API_KEY');
    expect(describeError(new ServiceTimeoutError('detail', { operation: 'image' })).summary).toContain('too long');
    expect(describeError(new StreamCutError('detail', { operation: 'messages' })).summary).toContain(
      'dropped the connection mid-answer',
    );
    expect(
      describeError(new ServiceFailedError('detail', { status: 500, serviceType: 'INTERNAL', operation: 'text' }))
        .summary,
    ).toBe('The text service failed. Try again in a minute.');
  });

  it('says a reply stopped for safety is not to be retried as it is', () => {
    expect(describeError(new SafetyStopError({ text: 'Partial', reason: 'SAFETY' }))).toEqual({
      summary: 'The model stopped for safety reasons. Rewording it may help.',
      retryable: false,
    });
  });

  it('tells a safety block from a missing image', () => {
    expect(describeError(noOutputError({ promptFeedback: { blockReason: 'SAFETY' } }, 'image'))).toEqual({
      summary: 'The model declined this for safety reasons. Rewording it may help.',
      retryable: false,
    });
    expect(describeError(noOutputError({ candidates: [{ finishReason: 'IMAGE_SAFETY' }] }, 'image')).summary).toMatch(
      /^The model declined this for safety reasons\./,
    );
    const rated = noOutputError(
      {
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        candidates: [{ safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', blocked: true }, {}] }],
      },
      'image',
    );
    expect(describeError(rated).summary).toBe(
      'The model declined this for safety reasons (prohibited content, dangerous content). Rewording it may help.',
    );
    expect(describeError(noOutputError({ candidates: [{ finishReason: 'NO_IMAGE' }] }, 'image'))).toEqual({
      summary: 'The model gave no image this time.',
      retryable: true,
    });
    expect(describeError(noOutputError({ candidates: [{ finishReason: 'STOP' }] }, 'text')).summary).toBe(
      'The model gave no reply this time.',
    );
  });

  it('says what the service said of a request it rejected, without codes', () => {
    const rejected = new ServiceFailedError('HTTP 400 INVALID_ARGUMENT: Unsupported aspect ratio', {
      status: 400,
      serviceType: 'INVALID_ARGUMENT',
      serviceMessage: 'Unsupported aspect ratio',
      operation: 'image',
    });
    expect(describeError(rejected).summary).toBe('The image service rejected the request: Unsupported aspect ratio.');
    expect(describeError(new ServiceFailedError('HTTP 400', { status: 400, operation: 'text' })).summary).toBe(
      'The text service rejected the request.',
    );
  });

  it('passes usage errors through and hides anything unknown', () => {
    expect(describeError(new UsageError('Bad flag --x.'))).toEqual({ summary: 'Bad flag --x.', retryable: false });
    const unknown = describeError(new Error('at /secret/path with token xoxb-1'));
    expect(unknown.summary).not.toContain('xoxb');
    expect(describeError(new DOMException('aborted', 'AbortError')).summary).toContain('cancelled');
  });
});

describe('noOutputError', () => {
  it('carries the block reason and each candidate outcome', () => {
    const error = noOutputError(
      {
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        candidates: [
          {
            finishReason: 'SAFETY',
            finishMessage: 'nope',
            safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true }],
          },
        ],
      },
      'image',
    );
    expect(error.blockReason).toBe('PROHIBITED_CONTENT');
    expect(error.candidates).toEqual([
      {
        index: 0,
        finishReason: 'SAFETY',
        finishMessage: 'nope',
        safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true }],
      },
    ]);
    expect(error.safetyBlocked).toBe(true);
    expect(error.wanted).toBe('image');
    expect(error.message).toContain('PROHIBITED_CONTENT');
  });
});
