import type { ChatModel, ImageModel } from '../surface/ports.js';
import type { MessageStream } from '../genai/message-stream.js';
import type { MessageParam, MessagesRequest } from '../genai/types.js';

/** About four characters a token: what a job is charged when the service reports no counts. */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function promptText(request: MessagesRequest): string {
  const part = (message: MessageParam): string =>
    typeof message.content === 'string'
      ? message.content
      : message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return [request.system ?? '', ...request.messages.map(part)].join('\n');
}

/** The counts a finished stream reports, if any. */
async function reportedBy(
  stream: Pick<MessageStream, 'finalMessage'>,
): Promise<{ input: number; output: number } | undefined> {
  try {
    const { input_tokens: input, output_tokens: output } = (await stream.finalMessage()).usage;
    if (typeof input !== 'number' && typeof output !== 'number') return undefined;
    return { input: typeof input === 'number' ? input : 0, output: typeof output === 'number' ? output : 0 };
  } catch {
    return undefined;
  }
}

export interface MeteredUsage {
  images: number;
  inputTokens: number;
  outputTokens: number;
  tokensEstimated: boolean;
}

/**
 * Counts what one job takes from the service: images returned, and chat
 * tokens as the service reports them, or estimated from the text when it
 * reports none (a stream cut short reports nothing: what was sent and what
 * came back is charged).
 */
export class UsageMeter {
  #images = 0;
  #input = 0;
  #output = 0;
  #estimated = false;
  /** Streams not yet charged: estimated when the job asks for its usage. */
  readonly #pending: (() => void)[] = [];

  wrapImages(model: ImageModel): ImageModel {
    return {
      generateImages: async (name, input, options) => {
        const images = await model.generateImages(name, input, options);
        this.#images += images.length;
        return images;
      },
    };
  }

  /**
   * Images a run before made that this run takes as made (a tool call's
   * result it found posted): the usage a job records replaces what its
   * earlier runs recorded, so they are counted again here.
   */
  countMadeBefore(images: number): void {
    this.#images += images;
  }

  wrapChat(model: ChatModel): ChatModel {
    return {
      streamMessage: (request, options) => {
        const stream = model.streamMessage(request, options);
        let text = '';
        let settled = false;
        const charge = (counts: { input: number; output: number } | undefined): void => {
          if (settled) return;
          settled = true;
          if (counts === undefined) {
            this.#estimated = true;
            this.#input += estimateTokens(promptText(request));
            this.#output += estimateTokens(text);
          } else {
            this.#input += counts.input;
            this.#output += counts.output;
          }
        };
        this.#pending.push(() => charge(undefined));
        return {
          textDeltas: async function* () {
            for await (const delta of stream.textDeltas()) {
              text += delta;
              yield delta;
            }
            charge(await reportedBy(stream));
          },
          finalMessage: () => stream.finalMessage(),
        };
      },
    };
  }

  /** What the job used; streams that never reported are estimated now. */
  usage(): MeteredUsage {
    for (const charge of this.#pending.splice(0)) charge();
    return {
      images: this.#images,
      inputTokens: this.#input,
      outputTokens: this.#output,
      tokensEstimated: this.#estimated,
    };
  }
}
