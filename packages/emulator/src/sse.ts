import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Server-sent events, each frame written (and so flushed, with Nagle off) as soon as it is sent. */
export class SseWriter {
  readonly #res: ServerResponse;
  #written: Promise<void> = Promise.resolve();

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
    if (!this.open) return;
    this.#written = new Promise((resolve) => {
      this.#res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`, () => resolve());
    });
  }

  end(): void {
    if (this.open) this.#res.end();
  }

  /** Drops the connection mid-stream, with no terminating chunk, once the frames sent so far are out. */
  cut(): void {
    void this.#written.then(() => this.#res.destroy());
  }
}
