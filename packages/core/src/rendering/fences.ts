/** An open code fence: its marker (``` or ~~~, possibly longer) and info string (language tag). */
export interface OpenFence {
  marker: string;
  info: string;
}

export interface ScannedLine {
  start: number;
  /** Index just past the line's text, before its newline. */
  end: number;
  /** The fence open when this line starts (a closing fence line starts inside it). */
  fenceBefore: OpenFence | undefined;
  /** The fence open after this line. */
  fenceAfter: OpenFence | undefined;
  isFenceLine: boolean;
  isBlank: boolean;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * CommonMark fences, line by line: a fence closes on a line of the same
 * character, at least as long, with no info string; a backtick fence's info
 * string holds no backtick.
 */
export function scanLines(text: string): ScannedLine[] {
  const lines: ScannedLine[] = [];
  let fence: OpenFence | undefined;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    const match = FENCE_LINE.exec(line);
    const before = fence;
    let isFenceLine = false;
    if (match !== null) {
      const marker = match[1] ?? '';
      const rest = (match[2] ?? '').trim();
      if (fence === undefined) {
        if (!(marker.startsWith('`') && rest.includes('`'))) {
          fence = { marker, info: rest };
          isFenceLine = true;
        }
      } else if (marker[0] === fence.marker[0] && marker.length >= fence.marker.length && rest === '') {
        fence = undefined;
        isFenceLine = true;
      }
    }
    lines.push({ start, end, fenceBefore: before, fenceAfter: fence, isFenceLine, isBlank: line.trim() === '' });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

/** The fence still open at the end of `text`, if any. */
export function openFenceAtEnd(text: string): OpenFence | undefined {
  return scanLines(text).at(-1)?.fenceAfter;
}

/** `text` with an open fence closed on a line of its own, so what follows renders as prose. */
export function closeOpenFence(text: string): string {
  const fence = openFenceAtEnd(text);
  if (fence === undefined) return text;
  return `${text}${text.endsWith('\n') ? '' : '\n'}${fence.marker}`;
}
