import type { RequestListener, Server } from 'node:http';
import type { LoopTurns } from '@genbot/core/time';

/**
 * Each request waits its turn of the loop before Bolt reads, verifies and
 * acknowledges it: a burst of deliveries arrives in one poll of the loop, and
 * Bolt's own work for each (the signature's HMAC, the body, the answer) would
 * otherwise run for all of them in one stretch. A request is an `arrival`: it
 * goes before the work of deliveries already taken, so Slack hears back in
 * time however busy the bot is. Listeners added later (the acknowledgement
 * timer) see the request as it arrives.
 */
export function takeTurns(server: Server, turns: LoopTurns): void {
  // Bolt's HTTPReceiver gives its listener to createServer; ours takes its place, in front of it.
  for (const listener of server.listeners('request') as RequestListener[]) {
    server.off('request', listener);
    server.on('request', (request, response) => {
      void turns.take('arrival').then(() => listener.call(server, request, response));
    });
  }
}
