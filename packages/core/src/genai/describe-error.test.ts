import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error.js';
import { ServiceError, UsageError } from './errors.js';
import { noOutputError } from './no-output.js';

function service(details: ConstructorParameters<typeof ServiceError>[1]): ServiceError {
  return new ServiceError('internal detail', details);
}

describe('describeError', () => {
  it('names the model and its variable on 404', () => {
    expect(describeError(service({ status: 404, errorType: 'NOT_FOUND', retryable: false, operation: 'image', model: 'x' }))).toEqual({
      summary: "Model 'x' was not found (404): check IMAGE_MODEL.",
      retryable: false,
    });
    expect(describeError(service({ status: 404, errorType: 'not_found_error', retryable: false, operation: 'messages', model: 'c' })).summary).toContain(
      'CHAT_MODEL',
    );
  });

  it('explains overload, rate limits, credentials, timeouts and cut streams', () => {
    expect(describeError(service({ status: 529, errorType: 'overloaded_error', retryable: true, operation: 'image' }))).toEqual({
      summary: 'The image service is overloaded right now. Try again in a minute.',
      retryable: true,
    });
    expect(describeError(service({ errorType: 'overloaded_error', retryable: true, operation: 'messages' })).summary).toContain('chat service is overloaded');
    expect(describeError(service({ status: 429, errorType: 'RESOURCE_EXHAUSTED', retryable: true, operation: 'text' })).retryable).toBe(true);
    expect(describeError(service({ status: 401, errorType: 'authentication_error', retryable: false })).summary).toContain('GENAI_API_KEY');
    expect(describeError(service({ errorType: 'timeout', retryable: true, operation: 'image' })).summary).toContain('too long');
    expect(describeError(service({ errorType: 'stream_cut', retryable: true, operation: 'messages' })).summary).toContain('cut off');
    expect(describeError(service({ status: 500, errorType: 'INTERNAL', retryable: true, operation: 'text' })).summary).toBe(
      'The text service failed (500). Try again in a minute.',
    );
  });

  it('tells a safety block from a missing image', () => {
    expect(describeError(noOutputError({ promptFeedback: { blockReason: 'SAFETY' } }, 'image'))).toEqual({
      summary: 'Blocked for safety: SAFETY. Try rewording it.',
      retryable: false,
    });
    expect(describeError(noOutputError({ candidates: [{ finishReason: 'IMAGE_SAFETY' }] }, 'image')).summary).toMatch(/^Blocked for safety: IMAGE_SAFETY/);
    expect(describeError(noOutputError({ candidates: [{ finishReason: 'NO_IMAGE' }] }, 'image'))).toEqual({
      summary: 'The model returned no image (NO_IMAGE).',
      retryable: true,
    });
    expect(describeError(noOutputError({ candidates: [{ finishReason: 'STOP' }] }, 'text')).summary).toBe('The model returned no text.');
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
