import type { Metrics } from '@genbot/core/metrics';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Queue waits range from instant to minutes when workers are saturated. */
const WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Acknowledgements: Slack wants one within 3 s; a healthy ingress answers in milliseconds. */
const ACK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 3];
/** Jobs and model requests: a chat reply takes seconds, an image up to the 120 s timeout. */
const RUN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

/**
 * Core's Metrics port on prom-client, in a registry of its own (not prom-client's
 * global one, so two in one process, as in tests, do not collide). The registry also
 * carries Node's default metrics, among them the event-loop delay
 * (`nodejs_eventloop_lag_p99_seconds` and friends).
 */
export class PromMetrics implements Metrics {
  readonly registry = new Registry();
  readonly #jobs: Counter<'kind' | 'outcome'>;
  readonly #queueWait: Histogram<'kind'>;
  readonly #jobRun: Histogram<'kind' | 'outcome'>;
  readonly #model: Histogram<'operation' | 'outcome'>;
  readonly #rateLimited: Counter<'platform' | 'route'>;
  readonly #events: Counter<'platform' | 'kind'>;
  readonly #acks: Histogram<'platform'>;
  readonly #queued: Counter<'kind'>;
  readonly #refused: Counter<'kind' | 'reason'>;
  readonly #feedback: Counter<'platform' | 'rating'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.#jobs = new Counter({
      name: 'genbot_jobs_total',
      help: 'Jobs ended, by kind and outcome (done, rejected, failed, abandoned).',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.#queueWait = new Histogram({
      name: 'genbot_job_queue_wait_seconds',
      help: 'Time from a job being accepted to a worker taking it.',
      labelNames: ['kind'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.#jobRun = new Histogram({
      name: 'genbot_job_run_seconds',
      help: 'Time a worker spent on a job, by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      buckets: RUN_BUCKETS,
      registers,
    });
    this.#model = new Histogram({
      name: 'genbot_model_request_seconds',
      help: 'Latency of requests to the content-generation service, by operation and outcome (ok, error).',
      labelNames: ['operation', 'outcome'],
      buckets: RUN_BUCKETS,
      registers,
    });
    this.#rateLimited = new Counter({
      name: 'genbot_platform_rate_limited_total',
      help: 'Responses with status 429 from Slack or Discord, by platform and route.',
      labelNames: ['platform', 'route'],
      registers,
    });
    this.#events = new Counter({
      name: 'genbot_events_received_total',
      help: 'Events, commands and interactions a platform delivered to this process, by platform and kind.',
      labelNames: ['platform', 'kind'],
      registers,
    });
    this.#acks = new Histogram({
      name: 'genbot_ack_seconds',
      help: "Time from a platform's request arriving to this process answering it (Slack over HTTP).",
      labelNames: ['platform'],
      buckets: ACK_BUCKETS,
      registers,
    });
    this.#queued = new Counter({
      name: 'genbot_jobs_queued_total',
      help: 'Jobs ingress recorded and queued, by kind.',
      labelNames: ['kind'],
      registers,
    });
    this.#refused = new Counter({
      name: 'genbot_jobs_refused_total',
      help: 'Jobs ingress turned away with a private answer, by kind and reason (quota, share, stopping, ...).',
      labelNames: ['kind', 'reason'],
      registers,
    });
    this.#feedback = new Counter({
      name: 'genbot_reply_feedback_total',
      help: "Presses of a reply's feedback buttons, by platform and rating (good, bad).",
      labelNames: ['platform', 'rating'],
      registers,
    });
  }

  jobFinished(job: Parameters<Metrics['jobFinished']>[0]): void {
    this.#jobs.inc({ kind: job.kind, outcome: job.outcome });
    this.#jobRun.observe({ kind: job.kind, outcome: job.outcome }, job.seconds);
  }

  jobStarted(job: Parameters<Metrics['jobStarted']>[0]): void {
    this.#queueWait.observe({ kind: job.kind }, job.waitedSeconds);
  }

  modelRequest(request: Parameters<Metrics['modelRequest']>[0]): void {
    this.#model.observe({ operation: request.operation, outcome: request.ok ? 'ok' : 'error' }, request.seconds);
  }

  rateLimited(hit: Parameters<Metrics['rateLimited']>[0]): void {
    this.#rateLimited.inc({ platform: hit.platform, route: hit.route });
  }

  eventReceived(event: Parameters<Metrics['eventReceived']>[0]): void {
    this.#events.inc({ platform: event.platform, kind: event.kind });
  }

  acknowledged(ack: Parameters<Metrics['acknowledged']>[0]): void {
    this.#acks.observe({ platform: ack.platform }, ack.seconds);
  }

  jobQueued(job: Parameters<Metrics['jobQueued']>[0]): void {
    this.#queued.inc({ kind: job.kind });
  }

  jobRefused(job: Parameters<Metrics['jobRefused']>[0]): void {
    this.#refused.inc({ kind: job.kind, reason: job.reason });
  }

  replyFeedback(feedback: Parameters<Metrics['replyFeedback']>[0]): void {
    this.#feedback.inc({ platform: feedback.platform, rating: feedback.rating });
  }
}
