import sharp, { type Metadata } from 'sharp';

export interface ImageHeaderLimits {
  /** Pixels of one frame, in millions: what a decoder allocates for it. */
  maxMegapixels: number;
  /** Frames of an animation (GIF, WebP): each is decoded in full. */
  maxFrames: number;
}

/** Far past any photo or drawing worth editing, far short of what exhausts a decoder. */
export const DEFAULT_IMAGE_HEADER_LIMITS: ImageHeaderLimits = { maxMegapixels: 40, maxFrames: 100 };

export type ImageHeaderProblem =
  | { kind: 'pixels'; width: number; height: number; maxMegapixels: number }
  | { kind: 'frames'; frames: number; maxFrames: number }
  | { kind: 'unreadable' };

/**
 * What an image's header declares, checked before anything decodes it or
 * sends it on: a small file can declare 50,000 × 50,000 pixels or thousands of
 * frames (an image bomb). Read with sharp (libvips), which parses headers
 * only; its own pixel limit is lifted so the declared size can be reported.
 * Undefined when the image is within the limits.
 */
export async function imageHeaderProblem(
  bytes: Uint8Array,
  limits: ImageHeaderLimits = DEFAULT_IMAGE_HEADER_LIMITS,
): Promise<ImageHeaderProblem | undefined> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { kind: 'unreadable' };
  }
  const { width, height } = metadata;
  if (width === undefined || height === undefined || width <= 0 || height <= 0) return { kind: 'unreadable' };
  // For animations libvips reports one frame's height as pageHeight; the whole canvas as height otherwise.
  const frameHeight = metadata.pageHeight ?? height;
  if (width * frameHeight > limits.maxMegapixels * 1_000_000) {
    return { kind: 'pixels', width, height: frameHeight, maxMegapixels: limits.maxMegapixels };
  }
  const frames = metadata.pages ?? 1;
  if (frames > limits.maxFrames) return { kind: 'frames', frames, maxFrames: limits.maxFrames };
  return undefined;
}
