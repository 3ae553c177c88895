export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** Test and benchmark controls that travel inside the prompt text, e.g. `[len:2000]`. */
export interface Directives {
  fault?: string;
  images?: number;
  format?: ImageFormat;
  mb?: number;
  len?: number;
  delay?: number;
  /** `[usage:late]`: a stream whose message_start carries no usage, the counts coming only at the end. */
  usage?: 'late';
}

function directive(text: string, name: string): string | undefined {
  return new RegExp(`\\[${name}:([^\\]\\s]+)\\]`, 'i').exec(text)?.[1];
}

function wholeNumber(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number.parseInt(value, 10);
}

function imageFormat(value: string | undefined): ImageFormat | undefined {
  const lower = value?.toLowerCase();
  if (lower === 'jpg') return 'jpeg';
  return lower === 'png' || lower === 'jpeg' || lower === 'webp' ? lower : undefined;
}

export function readDirectives(text: string): Directives {
  return {
    fault: directive(text, 'fault'),
    images: wholeNumber(directive(text, 'images')),
    format: imageFormat(directive(text, 'format')),
    mb: wholeNumber(directive(text, 'mb')),
    len: wholeNumber(directive(text, 'len')),
    delay: wholeNumber(directive(text, 'delay')),
    usage: directive(text, 'usage')?.toLowerCase() === 'late' ? 'late' : undefined,
  };
}
