import { copy } from '../copy/copy.js';
import type { ResultButton } from '../surface/surface.js';
import { versionRef } from '../store/index.js';
import { buttonId, type FormName } from './button-id.js';

export interface ResultButtonsOptions {
  jobId: string;
  /** The job-wide index of the message's first image, and how many it shows. */
  firstIndex: number;
  count: number;
  /** Re-roll: only when the request can be made again (not for an edit of an image the bot did not make). */
  reroll: boolean;
  /** Undo: on an image made from another version. */
  undo: boolean;
  /** The images' version numbers, when recorded: a lone image's Edit form is titled with its number. */
  numbers?: readonly number[] | undefined;
}

/**
 * The buttons under one result message: Re-roll (the message's request),
 * Vary and Edit for each image (numbered when there are several), and Undo on
 * an edited image. Each points at one image version by its ref, so it works
 * from any process after any restart; Re-roll and Undo at the first image's.
 */
export function resultButtons(options: ResultButtonsOptions): ResultButton[] {
  const { jobId, firstIndex, count } = options;
  const ref = (offset: number): string => versionRef(jobId, firstIndex + offset);
  const numbered = (offset: number): number | undefined => (count > 1 ? offset + 1 : undefined);
  const formName = (offset: number): FormName | undefined => {
    if (count > 1) return { image: offset + 1 };
    const number = options.numbers?.[offset];
    return number === undefined ? undefined : { version: number };
  };
  const offsets = Array.from({ length: count }, (_, offset) => offset);
  return [
    ...(options.reroll
      ? [{ id: buttonId('reroll', ref(0)), label: copy.buttonReroll, action: 'reroll' as const }]
      : []),
    ...offsets.map((offset) => ({
      id: buttonId('vary', ref(offset)),
      label: copy.buttonVary(numbered(offset)),
      action: 'vary' as const,
    })),
    ...offsets.map((offset) => ({
      id: buttonId('edit', ref(offset), formName(offset)),
      label: copy.buttonEdit(numbered(offset)),
      action: 'edit' as const,
    })),
    ...(options.undo ? [{ id: buttonId('undo', ref(0)), label: copy.buttonUndo, action: 'undo' as const }] : []),
  ];
}
