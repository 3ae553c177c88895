import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { writeFiller } from './http-io.js';

/** The real service pads some data lines with spaces inside the JSON, before its last brace. */
const PADDINGS = [0, 10, 3, 0, 16, 6, 1];

/**
 * Server-sent events as the real service writes them: each frame written (and
 * so flushed, with Nagle off) as soon as it is sent, data lines padded with
 * spaces here and there, and the last event without its closing blank line.
 */
export class SseWriter {
  readonly #res: ServerResponse;
  #written: Promise<void> = Promise.resolve();
  #sent = 0;

  constructor(res: ServerResponse, headers: OutgoingHttpHeaders) {
    this.#res = res;
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
  }

  get open(): boolean {
    return !this.#res.destroyed && !this.#res.writableEnded;
  }

  send(event: string, data: unknown): void {
    this.#write(`${this.#frame(event, data)}\n`);
  }

  /** Sends the stream's last event, without the blank line after it, and ends the stream. */
  last(event: string, data: unknown): void {
    this.#write(this.#frame(event, data));
    this.end();
  }

  end(): void {
    if (this.open) this.#res.end();
  }

  /** Drops the connection mid-stream, with no terminating chunk, once the frames sent so far are out. */
  cut(): void {
    void this.#written.then(() => this.#res.destroy());
  }

  /** Starts a line, then never ends it: `filler` follows as fast as the client reads, until it goes away. */
  async endlessLine(start: string, filler: string, signal: AbortSignal): Promise<void> {
    this.#write(start);
    await this.#written;
    await writeFiller(this.#res, Buffer.from(filler.repeat(Math.ceil((64 * 1024) / filler.length))), signal);
  }

  #frame(event: string, data: unknown): string {
    const json = JSON.stringify(data);
    const padding = PADDINGS[this.#sent++ % PADDINGS.length] ?? 0;
    return `event: ${event}\ndata: ${json.slice(0, -1)}${' '.repeat(padding)}}\n`;
  }

  #write(text: string): void {
    if (!this.open) return;
    this.#written = new Promise((resolve) => {
      this.#res.write(text, () => resolve());
    });
  }
}
