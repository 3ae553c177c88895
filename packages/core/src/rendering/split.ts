import { scanLines, type OpenFence } from './fences.js';

/** The first message cut from a text that does not fit in one. */
export interface Piece {
  /** The message: `body.slice(0, consumed) + closing`. */
  text: string;
  /** Characters of the body this message covers. */
  consumed: number;
  /** Fence line added to close a code block cut in two ('' when none). */
  closing: string;
  /** What the next message must start with to reopen that block, language tag kept ('' when none). */
  reopen: string;
}

// Boundary quality, best first: a cut lands at the best kind that still fills
// a good part of the message.
const PARAGRAPH = 0;
const LINE = 1;
const SENTENCE = 2;
const WORD = 3;

interface Boundary {
  at: number;
  level: number;
  fence: OpenFence | undefined;
}

/** A lesser kind of boundary wins when the better one would leave the message less than this full. */
const GOOD_FILL = 0.5;
/** Below this, a hard cut beats any boundary (an unbreakable run should not leave a stub message). */
const MIN_FILL = 0.1;

function pieceAt(body: string, at: number, fence: OpenFence | undefined): Piece {
  const head = body.slice(0, at);
  if (fence === undefined) return { text: head, consumed: at, closing: '', reopen: '' };
  const closing = `${head.endsWith('\n') ? '' : '\n'}${fence.marker}`;
  return { text: head + closing, consumed: at, closing, reopen: `${fence.marker}${fence.info}\n` };
}

function boundaries(body: string): Boundary[] {
  const lines = scanLines(body);
  const found: Boundary[] = [];
  lines.forEach((line, index) => {
    const previous = index > 0 ? lines[index - 1] : undefined;
    const closesFence = line.isFenceLine && line.fenceBefore !== undefined;
    const opensEmptyBlock = previous?.isFenceLine && previous.fenceAfter !== undefined;
    // Cutting right before a closing fence or right after an opening one would leave an empty block.
    if (previous !== undefined && !closesFence && !opensEmptyBlock) {
      found.push({ at: line.start, level: previous.isBlank ? PARAGRAPH : LINE, fence: line.fenceBefore });
    }
    if (line.isFenceLine) return;
    for (let at = line.start + 1; at < line.end; at += 1) {
      const before = body[at - 1] ?? '';
      const here = body[at] ?? '';
      if (!/[ \t]/.test(before) || /[ \t]/.test(here)) continue;
      let runStart = at - 1;
      while (runStart > line.start && /[ \t]/.test(body[runStart - 1] ?? '')) runStart -= 1;
      const tail = body.slice(Math.max(line.start, runStart - 4), runStart);
      const level = /[.!?]["')\]*_]*$/.test(tail) ? SENTENCE : WORD;
      found.push({ at, level, fence: line.fenceBefore });
    }
  });
  return found;
}

function fenceAt(body: string, at: number): OpenFence | undefined {
  const lines = scanLines(body);
  const line = lines.findLast((candidate) => candidate.start <= at);
  return line?.fenceBefore;
}

/** Never between the two halves of a surrogate pair. */
function safeCut(body: string, at: number): number {
  const code = body.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/**
 * Cuts the first message off `body` at a clean boundary: paragraph, then
 * line, then sentence, then word, a hard cut only when none fits. A code
 * block cut in two is closed in this message and reopened in the next.
 * `fits` measures a candidate (after formatting); `keep` characters at the
 * start (a reopened fence line) always stay in this message.
 */
export function cutPiece(body: string, fits: (markdown: string) => boolean, keep = 0): Piece {
  const firstContent = body.slice(keep).search(/\S/) + keep;
  const hasContent = (at: number): boolean => firstContent >= keep && at > firstContent;
  const hardPiece = (at: number): Piece => pieceAt(body, at, fenceAt(body, at));

  // Largest hard cut that fits; fitting shrinks as the cut grows.
  let low = keep + 1;
  let high = body.length - 1;
  let maxFit = keep;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    if (fits(hardPiece(middle).text)) {
      maxFit = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  if (maxFit <= keep) {
    // Nothing fits (a limit smaller than one character plus a fence): still make progress.
    return hardPiece(Math.min(body.length, keep + (safeCut(body, keep + 1) === keep ? 2 : 1)));
  }

  const candidates = boundaries(body).filter((b) => b.at > keep && b.at <= maxFit + 1 && hasContent(b.at));
  // First the best kind of boundary that fills the message well; failing that, any clean boundary.
  for (const minFill of [GOOD_FILL, MIN_FILL]) {
    for (let level = PARAGRAPH; level <= WORD; level += 1) {
      const eligible = candidates.filter((b) => b.level <= level);
      for (let index = eligible.length - 1; index >= 0; index -= 1) {
        const boundary = eligible[index];
        if (boundary === undefined || boundary.at - keep < (maxFit - keep) * minFill) break;
        const piece = pieceAt(body, boundary.at, boundary.fence);
        if (fits(piece.text)) return piece;
      }
    }
  }
  return hardPiece(safeCut(body, maxFit));
}
