import { UsageError } from '../errors.js';
import { ASPECT_RATIOS, type AspectRatio } from './types.js';

function isAspectRatio(value: string): value is AspectRatio {
  return (ASPECT_RATIOS as readonly string[]).includes(value);
}

/** Accepts `W:H` among the ratios the image service supports; spaces around the parts are tolerated. */
export function parseAspectRatio(value: string): AspectRatio {
  const normalized = value.replace(/\s+/g, '');
  if (isAspectRatio(normalized)) return normalized;
  const shown = normalized.length > 20 ? `${normalized.slice(0, 20)}…` : normalized;
  throw new UsageError(`Unsupported aspect ratio '${shown}': use one of ${ASPECT_RATIOS.join(', ')}.`);
}
