/** Longest stem, so a name stays readable in a file list and far under every file system's limit. */
const MAX_STEM_CHARS = 48;

// Test and benchmark controls of the emulator travel in prompts (`[images:3]`, `[fault:429=5]`).
const DIRECTIVE = /\[[a-z][\w-]*:[^\]]*\]/gi;
// Command-line style flags and their value (`--ar 16:9`, `--v 6`): settings, not what the image shows.
const FLAG = /(^|\s)--[a-z][\w-]*(?:[ =](?!--)\S+)?/gi;

/**
 * The name of a file without its directory, extension and our own number:
 * `photo` for `shots/photo.png`, `a-fox` for `a-fox-2.png`, so that editing
 * an image we named does not stack numbers (`a-fox-2-blue-1-red-1.png`).
 */
function baseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).at(-1) ?? '';
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).replace(/-\d+$/, '');
}

/**
 * The stem every image file is named with, by the bots and the command-line
 * client alike: what was asked (an edit's source file name first, then its
 * instruction) as lowercase ASCII words joined by dashes, without emulator
 * directives or flags; `image` when nothing usable is left.
 */
export function imageFileStem(request: { prompt: string; sourceName?: string | undefined }): string {
  const text = [request.sourceName === undefined ? '' : baseName(request.sourceName), request.prompt].join(' ');
  const stem = text
    .replace(DIRECTIVE, ' ')
    .replace(FLAG, ' ')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_STEM_CHARS)
    .replace(/-+$/, '');
  return stem === '' ? 'image' : stem;
}

/** `{stem}-{number}.{extension}`: the number counts the images of a request from 1 (and past names taken). */
export function imageFileName(stem: string, number: number, extension: string): string {
  return `${stem}-${number}.${extension}`;
}
