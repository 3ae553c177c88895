import { type CandidateOutcome, NoOutputError } from './errors.js';
import type { GenerateContentResponse } from './types.js';

/** Why a 200 answer carried no image or no text, in terms the caller can branch on. */
export function noOutputError(response: GenerateContentResponse, wanted: 'text' | 'image'): NoOutputError {
  const blockReason = response.promptFeedback?.blockReason;
  const candidates: CandidateOutcome[] = (response.candidates ?? []).map((candidate, position) => ({
    index: candidate.index ?? position,
    finishReason: candidate.finishReason,
    finishMessage: candidate.finishMessage,
    safetyRatings: (candidate.safetyRatings ?? []).map((rating) => ({
      category: rating.category,
      probability: rating.probability,
      blocked: rating.blocked,
    })),
  }));
  const what = wanted === 'image' ? 'no image' : 'no text';
  let reason: string;
  if (blockReason !== undefined) {
    reason = `the prompt was blocked (${blockReason})`;
  } else {
    const finishReasons = [
      ...new Set(candidates.flatMap((c) => (c.finishReason === undefined ? [] : [c.finishReason]))),
    ];
    reason =
      candidates.length === 0
        ? 'no candidates'
        : finishReasons.length > 0
          ? `finish reason ${finishReasons.join(', ')}`
          : 'empty candidates';
  }
  return new NoOutputError(`The service returned ${what}: ${reason}.`, { wanted, blockReason, candidates });
}
