import { seededRandom } from './seed.js';

const DEFAULT_LENGTH = 160;
/** Replies this long also carry a fenced code block in the middle, so message splitting meets one. */
const CODE_BLOCK_FROM = 1500;
const SENTENCES_PER_PARAGRAPH = 4;

const WORDS = [
  'signal',
  'river',
  'quiet',
  'lantern',
  'orbit',
  'meadow',
  'copper',
  'harbor',
  'velvet',
  'summit',
  'ember',
  'glacier',
  'pattern',
  'window',
  'thread',
  'compass',
  'garden',
  'echo',
  'marble',
  'canvas',
  'horizon',
  'pixel',
  'ribbon',
  'thunder',
  'willow',
  'prism',
  'anchor',
  'feather',
  'circuit',
  'harvest',
  'beacon',
  'tide',
  'granite',
  'melody',
  'voyage',
  'cedar',
  'spark',
  'ledger',
  'mosaic',
  'falcon',
];
const JOINERS = ['and', 'with', 'beside', 'under', 'over', 'through', 'toward', 'beyond'];

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

function sentence(random: () => number): string {
  const count = 6 + Math.floor(random() * 9);
  const words = Array.from({ length: count }, (_, i) => (i % 4 === 3 ? pick(JOINERS, random) : pick(WORDS, random)));
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function codeBlock(random: () => number): string {
  const name = pick(WORDS, random);
  const factor = 2 + Math.floor(random() * 20);
  const offset = Math.floor(random() * 100);
  return [
    '```ts',
    `function ${name}(value: number): number {`,
    `  const scaled = value * ${factor};`,
    `  return scaled + ${offset};`,
    '}',
    '```',
  ].join('\n');
}

/**
 * How many turns came before the prompt, in words: a newcomer sees that the conversation reached
 * the model. Empty for the first message of a conversation.
 */
export function earlierTurnsNote(earlier: number): string {
  if (earlier <= 0) return '';
  return ` (${earlier} earlier ${earlier === 1 ? 'message' : 'messages'} in this conversation)`;
}

/**
 * Deterministic reply text: quotes the prompt, says how many turns came before it, then seeded
 * sentences in paragraphs until about `length` characters (never shorter than the quote).
 */
export function replyText(prompt: string, length = DEFAULT_LENGTH, earlier = 0): string {
  const random = seededRandom(prompt);
  let text = `You said: "${prompt.trim()}".${earlierTurnsNote(earlier)}`;
  let inParagraph = 1;
  let needsCode = length >= CODE_BLOCK_FROM;
  while (text.length < length) {
    if (needsCode && text.length >= length / 2) {
      text += `\n\n${codeBlock(random)}`;
      needsCode = false;
      inParagraph = SENTENCES_PER_PARAGRAPH;
      continue;
    }
    const separator = inParagraph >= SENTENCES_PER_PARAGRAPH ? '\n\n' : ' ';
    inParagraph = separator === ' ' ? inParagraph + 1 : 1;
    text += separator + sentence(random);
  }
  return text;
}

/** Splits text into `count` consecutive pieces at word boundaries (characters when words run short). */
export function splitIntoDeltas(text: string, count: number): string[] {
  if (text.length === 0) return [];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const units = words.length >= count ? words : [...text];
  const pieces = Math.min(count, units.length);
  const deltas: string[] = [];
  for (let i = 0; i < pieces; i++) {
    const start = Math.floor((i * units.length) / pieces);
    const end = Math.floor(((i + 1) * units.length) / pieces);
    deltas.push(units.slice(start, end).join(''));
  }
  return deltas;
}

/** A rough token count (about four characters a token), enough for usage fields. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
