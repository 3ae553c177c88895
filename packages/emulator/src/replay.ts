import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded answer of the real service, as it is sent back: status, content type and the bytes. */
export interface ReplayAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface Replay {
  /** Base URL to give the client (`GENAI_BASE_URL`). */
  url: string;
  /** The path of every request answered so far. */
  paths: string[];
  close(): Promise<void>;
}

/**
 * A loopback server that answers every request with the same recorded bytes.
 * It checks nothing: replays test what the client makes of the real
 * service's answers, not what it sends (the emulator checks that).
 */
export async function startReplay(answer: ReplayAnswer): Promise<Replay> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '/');
    // The whole request is read first, as a real server would before answering.
    req.resume();
    req.once('end', () => {
      res.writeHead(answer.status, {
        'content-type': answer.contentType,
        'content-length': answer.body.byteLength,
      });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
