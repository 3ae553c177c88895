import { sha256Hex } from './seed.js';

/** A tool call the emulator makes: its input as the JSON text it streams (which a fault test may break). */
export interface ToolCall {
  id: string;
  name: string;
  json: string;
  /** Words before the call, as a model says what it is about to do; none for a forced call. */
  preface: string | undefined;
}

export interface ToolContext {
  /** The last user turn's words, file texts and image labels included (none when it only answers tool calls). */
  prompt: string;
  /** The person's own words: the last text block of the last user turn (its files and their labels come first). */
  ask: string;
  /** The words of the latest user turn that has any: the message the model is answering, through its tool rounds. */
  userWords: string;
  /** Whether the last user turn carries tool results: the model then closes, unless a loop keeps it calling. */
  afterResults: boolean;
  /** Names of the tools the request offers. */
  tools: readonly string[];
  /** Whether any turn of the conversation carries an image. */
  hasImage: boolean;
  /** Seeds the call's id, so the same request gets the same id. */
  seed: string | Buffer;
}

const RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
const PICTURE =
  /\b(?:draw|paint|sketch|illustrate)\b|\bpicture of\b|\b(?:generate|create|make)\s+(?:me\s+)?(?:an?\s+)?(?:new\s+)?(?:image|picture|drawing|illustration|photo)\b/i;
const EDIT =
  /\b(?:make|turn|change|convert|recolou?r)\s+(?:it|this|that|them|the\s+(?:image|picture|photo|drawing))\b/i;
/** `[tool:NAME {json}]`: the JSON runs to the directive's last bracket and is sent as written. */
const FORCED = /\[tool:([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?\]/;
/** `[tool-loop:NAME {json}]`: as `[tool:…]`, and called again in every answer after the tool results. */
const LOOPED = /\[tool-loop:([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?\]/;

/**
 * Which tool the model calls, deterministically: a `[tool-loop:NAME {json}]`
 * directive in the user's words calls it in every answer, after tool results
 * too, as a model that never stops would; a `[tool:NAME {json}]` directive
 * forces one call (any name, any JSON, tools offered or not); with tools
 * offered, a request for a picture calls `generate_image`, an instruction
 * about an image in the conversation calls `edit_image`. After tool results
 * only a loop calls again. Undefined: no call.
 */
export function decideToolCall(context: ToolContext): ToolCall | undefined {
  const id = (): string => `toolu_${sha256Hex(context.seed).slice(0, 24)}`;
  const looped = LOOPED.exec(context.userWords);
  if (looped !== null) {
    return { id: id(), name: looped[1] as string, json: looped[2]?.trim() || '{}', preface: undefined };
  }
  if (context.afterResults) return undefined;
  const forced = FORCED.exec(context.prompt);
  if (forced !== null) {
    return { id: id(), name: forced[1] as string, json: forced[2]?.trim() || '{}', preface: undefined };
  }
  const words = lastSpeakerWords(context.ask.replace(/\[[a-z-]+:[^\]]*\]/gi, '').trim());
  if (context.tools.includes('edit_image') && context.hasImage && EDIT.test(words)) {
    return {
      id: id(),
      name: 'edit_image',
      json: JSON.stringify({ instruction: words }),
      preface: "I'll edit the image.",
    };
  }
  if (context.tools.includes('generate_image') && PICTURE.test(words)) {
    const ratio = aspectRatio(words);
    const input = ratio === undefined ? { prompt: words } : { prompt: words, aspect_ratio: ratio };
    return { id: id(), name: 'generate_image', json: JSON.stringify(input), preface: "I'll draw that." };
  }
  return undefined;
}

/**
 * A conversation's turns start with their speaker's name ("Alice: draw…"), and one person's
 * messages in a row make one turn: a model takes the last message's words, without the name.
 */
function lastSpeakerWords(text: string): string {
  const messages = text.split(/\n\n(?=[^:\n]{1,40}:\s)/);
  return (messages.at(-1) ?? '').replace(/^[^:\n]{1,40}:\s+/, '').trim();
}

function aspectRatio(words: string): string | undefined {
  const given = RATIOS.find((ratio) => new RegExp(`(^|[^\\d])${ratio}($|[^\\d])`).test(words));
  if (given !== undefined) return given;
  if (/\b(?:wide|landscape|panorama)\b/i.test(words)) return '16:9';
  if (/\b(?:tall|portrait)\b/i.test(words)) return '9:16';
  if (/\bsquare\b/i.test(words)) return '1:1';
  return undefined;
}

/** The model's closing words once its tools have answered: each result named, an error said as one. */
export function closingWords(results: ReadonlyArray<{ text: string; isError: boolean }>): string {
  return results
    .map((result) =>
      result.isError
        ? `That didn't work: ${result.text === '' ? 'the tool failed' : result.text}`
        : `Done: ${result.text === '' ? 'the tool finished' : result.text}`,
    )
    .join('\n');
}

/** Splits a tool call's JSON into the pieces a stream sends, cutting anywhere (inside strings too). */
export function jsonPieces(json: string, count = 4): string[] {
  const size = Math.max(1, Math.ceil(json.length / count));
  const pieces = [''];
  for (let at = 0; at < json.length; at += size) pieces.push(json.slice(at, at + size));
  return pieces;
}
