// The live feed (/api/events) and the actions the page posts to the API.
import { useEffect, useState } from 'preact/hooks';

/** Without a state for this long (and no shutdown seen), the server is taken as gone. */
const GONE_AFTER_MS = 5000;

export const STOPPED = 'genbot stopped: run pnpm start again';

/**
 * The live state, and whether the server is still there: `stopped` once the feed ended after
 * shutdown began, or stayed away for a while. EventSource keeps retrying, so a new `pnpm start`
 * on the same port brings the page back by itself.
 */
export function useFeed() {
  const [state, setState] = useState(null);
  const [connected, setConnected] = useState(false);
  const [stopped, setStopped] = useState(false);
  useEffect(() => {
    const source = new EventSource('/api/events');
    let closing = false;
    let gone;
    source.addEventListener('state', (event) => {
      const next = JSON.parse(event.data);
      closing = next.closing;
      clearTimeout(gone);
      setState(next);
      setConnected(true);
      setStopped(false);
    });
    source.addEventListener('error', () => {
      setConnected(false);
      if (closing) setStopped(true);
      else {
        clearTimeout(gone);
        gone = setTimeout(() => setStopped(true), GONE_AFTER_MS);
      }
    });
    return () => {
      clearTimeout(gone);
      source.close();
    };
  }, []);
  return { state, connected, stopped };
}

/** A refusal the page shows: in the composer, or (with `from`) as the platform's own notice. */
export class Refusal extends Error {
  constructor(message, from) {
    super(message);
    this.from = from;
  }
}

export async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Refusal('The playground is not reachable: is genbot still running?');
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Refusal(
      typeof answer.error === 'string'
        ? answer.error
        : `The playground did not take that (HTTP ${response.status}): try again.`,
      answer.from,
    );
  }
  return answer;
}
