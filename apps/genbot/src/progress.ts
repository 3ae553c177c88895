/** The slice of a stream the ticker needs, so tests can pass a fake terminal. */
export interface ProgressStream {
  isTTY?: boolean | undefined;
  write(chunk: string): boolean;
}

export interface Progress {
  /** Clears the line; safe to call more than once. */
  stop(): void;
}

const TICK_MS = 1000;
// Carriage return + "erase whole line": the ticker leaves nothing behind once the result is out.
const CLEAR_LINE = '\r\x1b[2K';

/**
 * An elapsed-seconds ticker ("Generating... 12s") for requests that can take minutes. It writes only
 * to a terminal: when standard error is a file or a pipe, the escape codes would be noise there.
 */
export function startProgress(stream: ProgressStream, label: string, now: () => number = Date.now): Progress {
  if (stream.isTTY !== true) return { stop: () => undefined };
  const startedAt = now();
  const draw = (): void => {
    const seconds = Math.floor((now() - startedAt) / 1000);
    stream.write(`${CLEAR_LINE}${label}... ${seconds}s`);
  };
  draw();
  const timer = setInterval(draw, TICK_MS);
  // The ticker alone must not keep the process alive.
  timer.unref();
  let stopped = false;
  return {
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write(CLEAR_LINE);
    },
  };
}
