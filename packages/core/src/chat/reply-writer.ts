import { systemClock } from '../time/clock.js';
import { paceKeyOf } from '../rendering/channel-budget.js';
import type { ChatDeps } from './deps.js';
import { EditSink } from '../rendering/reply-edit-sink.js';
import { ReplyPump, type ReplyPumpOptions, type ReplyWriter } from '../rendering/reply-pump.js';
import { StreamSink } from '../rendering/reply-stream-sink.js';
import type { ChatTarget, ReplyContext } from '../surface/surface.js';

/**
 * A writer for one streamed reply in `target`: the surface's own streaming
 * when it offers one (falling back to edits in place where it cannot start),
 * edits in place otherwise. `signal` stops it (the trigger deleted, shutdown);
 * `options.stopped` says why when the stop cuts off text already finished.
 */
export function createReplyWriter(
  deps: ChatDeps,
  target: ChatTarget,
  context: ReplyContext,
  signal?: AbortSignal,
  options: Pick<ReplyPumpOptions, 'stopped'> = {},
): ReplyWriter {
  const { surface } = deps;
  const clock = deps.clock ?? systemClock;
  const edits = (): EditSink => new EditSink(surface, target, clock);
  const stream = surface.openStream?.(target, context);
  const gapMs = surface.limits.minEditIntervalMs;
  return new ReplyPump({
    sink: stream === undefined ? edits() : new StreamSink(stream, { clock, gapMs, fallback: edits }),
    target,
    limits: surface.limits,
    channels: deps.channels,
    paceKey: (kind) => paceKeyOf(surface, kind, target),
    clock,
    logger: deps.logger,
    signal,
    stopped: options.stopped,
  });
}
