import { createHash } from 'node:crypto';

/** Longest stem, so a name stays readable in a file list and far under every file system's limit. */
const MAX_STEM_CHARS = 48;

// Test and benchmark controls of the emulator travel in prompts (`[images:3]`, `[fault:429=5]`).
const DIRECTIVE = /\[[a-z][\w-]*:[^\]]*\]/gi;
// Command-line style flags and their value (`--ar 16:9`, `--v 6`): settings, not what the image shows.
const FLAG = /(^|\s)--[a-z][\w-]*(?:[ =](?!--)\S+)?/gi;

/** How long the words after an image's version may run (`v2-make-it-blue`), so the subject keeps room. */
const MAX_CHANGE_CHARS = 24;

/**
 * The name of a file without its directory, extension and our own number and tag:
 * `photo` for `shots/photo.png`, `a-fox` for `a-fox-2.png` or `a-fox-2-3fa2c1.png`, so
 * that editing an image we named does not stack numbers (`a-fox-2-blue-1-red-1.png`).
 */
function baseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).at(-1) ?? '';
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).replace(/-\d+(?:-[0-9a-f]{6})?$/, '');
}

/** Lowercase ASCII words joined by dashes, without emulator directives or flags, at most `max` characters. */
function slug(text: string, max: number): string {
  return text
    .replace(DIRECTIVE, ' ')
    .replace(FLAG, ' ')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

export interface ImageNameParts {
  /** What was asked: the prompt, or an edit's instruction; for a result of a button, the prompt its images began with. */
  prompt: string;
  /** The edited file's name, put first. */
  sourceName?: string | undefined;
  /** The version a button's result was made from, or shows again (an undo). */
  version?: number | undefined;
  /** What was done to that version: an edit's instruction, a variation's word. */
  change?: string | undefined;
}

/**
 * The stem every image file is named with, by the bots and the command-line
 * client alike: what was asked (an edit's source file name first, then its
 * instruction; a button's result: the prompt, the version and the change) as
 * lowercase ASCII words joined by dashes, without emulator directives or
 * flags; `image` when nothing usable is left.
 */
export function imageFileStem(parts: ImageNameParts): string {
  const subject = [parts.sourceName === undefined ? '' : baseName(parts.sourceName), parts.prompt].join(' ');
  const changed = [parts.version === undefined ? '' : `v${parts.version}`, parts.change ?? ''].join(' ');
  const tail = slug(changed, MAX_CHANGE_CHARS);
  const head = slug(subject, tail === '' ? MAX_STEM_CHARS : MAX_STEM_CHARS - tail.length - 1);
  const stem = [head, tail].filter((part) => part !== '').join('-');
  return stem === '' ? 'image' : stem;
}

/**
 * `{stem}-{number}.{extension}`: the number counts the images of a request from 1 (and past names
 * taken). With a tag (`resultTag`), `{stem}-{number}-{tag}.{extension}`: two results never share a name.
 */
export function imageFileName(stem: string, number: number, extension: string, tag?: string): string {
  return tag === undefined ? `${stem}-${number}.${extension}` : `${stem}-${number}-${tag}.${extension}`;
}

/** Bytes of each image read for its tag: enough to tell two images apart, cheap for large ones. */
const TAG_SAMPLE_BYTES = 64 * 1024;

/**
 * Six hex digits from a result's images (their sizes and first bytes): another result, another tag,
 * so a re-roll or a second request with the same prompt is not named like the first.
 */
export function resultTag(images: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const bytes of images) {
    hash.update(String(bytes.byteLength));
    hash.update(bytes.subarray(0, TAG_SAMPLE_BYTES));
  }
  return hash.digest('hex').slice(0, 6);
}
