import type { MessageStreamEvent, TextBlockParam, ToolUse, ToolUseBlockParam } from './types.js';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; startInput: unknown; json: string; done: ToolUse | undefined };

/**
 * The reply's text and tool_use blocks, put together from a stream's events
 * by block index. Other blocks (thinking, redacted thinking, kinds not known
 * yet) are skipped. A tool call's input comes as pieces of JSON and is read
 * once its block stops (or the stream ends), never before.
 */
export class ReplyBlocks {
  readonly #blocks = new Map<number, Block>();
  /** Events that leave out their index belong to the block opened last. */
  #lastIndex = 0;
  /** Blocks opened so far, of every kind: a start without an index is the next one. */
  #opened = 0;

  add(event: MessageStreamEvent): void {
    switch (event.type) {
      case 'content_block_start': {
        const index = event.index ?? this.#opened;
        this.#lastIndex = index;
        this.#opened = index + 1;
        const block = event.content_block;
        if (block.type === 'text') {
          this.#blocks.set(index, { type: 'text', text: typeof block.text === 'string' ? block.text : '' });
        } else if (block.type === 'tool_use' && block.id !== undefined && block.name !== undefined) {
          this.#blocks.set(index, {
            type: 'tool_use',
            id: block.id,
            name: block.name,
            startInput: block.input,
            json: '',
            done: undefined,
          });
        }
        break;
      }
      case 'content_block_delta': {
        const block = this.#blocks.get(event.index ?? this.#lastIndex);
        const delta = event.delta;
        if (
          block?.type === 'text' &&
          delta.type === 'text_delta' &&
          'text' in delta &&
          typeof delta.text === 'string'
        ) {
          block.text += delta.text;
        } else if (
          block?.type === 'tool_use' &&
          delta.type === 'input_json_delta' &&
          'partial_json' in delta &&
          typeof delta.partial_json === 'string'
        ) {
          block.json += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const block = this.#blocks.get(event.index ?? this.#lastIndex);
        if (block?.type === 'tool_use') block.done ??= readToolUse(block);
        break;
      }
      default:
        break;
    }
  }

  /** The tool calls in block order, each block read if its stop never came. */
  toolUses(): ToolUse[] {
    return this.#ordered().flatMap((block) => (block.type === 'tool_use' ? [this.#finished(block)] : []));
  }

  /** The reply as an assistant turn: text and tool_use blocks in order, empty text left out. */
  content(): Array<TextBlockParam | ToolUseBlockParam> {
    return this.#ordered().flatMap((block): Array<TextBlockParam | ToolUseBlockParam> => {
      if (block.type === 'text') return block.text === '' ? [] : [{ type: 'text', text: block.text }];
      const use = this.#finished(block);
      return [{ type: 'tool_use', id: use.id, name: use.name, input: use.kind === 'call' ? use.input : {} }];
    });
  }

  #ordered(): Block[] {
    return [...this.#blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  }

  #finished(block: Extract<Block, { type: 'tool_use' }>): ToolUse {
    block.done ??= readToolUse(block);
    return block.done;
  }
}

function readToolUse(block: Extract<Block, { type: 'tool_use' }>): ToolUse {
  const { id, name } = block;
  // A call with no arguments streams no JSON at all; the start event's input then is the input.
  if (block.json.trim() === '') {
    const input = block.startInput === undefined ? {} : block.startInput;
    if (isPlainObject(input)) return { kind: 'call', id, name, input };
    return { kind: 'invalid', id, name, rawInput: JSON.stringify(input), problem: 'the input is not a JSON object' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.json);
  } catch (error) {
    const problem = `the input is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
    return { kind: 'invalid', id, name, rawInput: block.json, problem };
  }
  if (!isPlainObject(parsed)) {
    return { kind: 'invalid', id, name, rawInput: block.json, problem: 'the input is not a JSON object' };
  }
  return { kind: 'call', id, name, input: parsed };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
