import { describe, expect, it } from 'vitest';
import { PromMetrics } from './prom-metrics.js';

describe('PromMetrics', () => {
  it('counts jobs by kind and outcome and times their runs', async () => {
    const metrics = new PromMetrics();
    metrics.jobFinished({ kind: 'imagine', outcome: 'done', seconds: 4 });
    metrics.jobFinished({ kind: 'imagine', outcome: 'done', seconds: 6 });
    metrics.jobFinished({ kind: 'converse', outcome: 'failed', seconds: 0.2 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('genbot_jobs_total{kind="imagine",outcome="done"} 2');
    expect(text).toContain('genbot_jobs_total{kind="converse",outcome="failed"} 1');
    expect(text).toContain('genbot_job_run_seconds_sum{kind="imagine",outcome="done"} 10');
    expect(text).toContain('genbot_job_run_seconds_bucket{le="5",kind="imagine",outcome="done"} 1');
  });

  it('times queue waits by kind and model requests by operation and outcome', async () => {
    const metrics = new PromMetrics();
    metrics.jobStarted({ kind: 'imagine', waitedSeconds: 0.5 });
    metrics.modelRequest({ operation: 'messages', ok: true, seconds: 1.5 });
    metrics.modelRequest({ operation: 'generate-content', ok: false, seconds: 120 });
    const text = await metrics.registry.metrics();
    expect(text).toContain('genbot_job_queue_wait_seconds_count{kind="imagine"} 1');
    expect(text).toContain('genbot_model_request_seconds_sum{operation="messages",outcome="ok"} 1.5');
    expect(text).toContain('genbot_model_request_seconds_count{operation="generate-content",outcome="error"} 1');
  });

  it('counts the 429s met per platform and route', async () => {
    const metrics = new PromMetrics();
    metrics.rateLimited({ platform: 'slack', route: 'chat.update' });
    metrics.rateLimited({ platform: 'slack', route: 'chat.update' });
    metrics.rateLimited({ platform: 'discord', route: '/channels/:id/messages' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('genbot_platform_rate_limited_total{platform="slack",route="chat.update"} 2');
    expect(text).toContain('genbot_platform_rate_limited_total{platform="discord",route="/channels/:id/messages"} 1');
  });

  it("counts ingress's events by platform and kind, times its acknowledgements, and counts jobs queued and refused by reason", async () => {
    const metrics = new PromMetrics();
    metrics.eventReceived({ platform: 'slack', kind: 'app_mention' });
    metrics.eventReceived({ platform: 'slack', kind: 'app_mention' });
    metrics.eventReceived({ platform: 'discord', kind: 'INTERACTION_CREATE' });
    metrics.acknowledged({ platform: 'slack', seconds: 0.004 });
    metrics.acknowledged({ platform: 'slack', seconds: 0.2 });
    metrics.jobQueued({ kind: 'mention' });
    metrics.jobRefused({ kind: 'imagine', reason: 'quota' });
    metrics.jobRefused({ kind: 'imagine', reason: 'quota' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('genbot_events_received_total{platform="slack",kind="app_mention"} 2');
    expect(text).toContain('genbot_events_received_total{platform="discord",kind="INTERACTION_CREATE"} 1');
    expect(text).toContain('genbot_ack_seconds_bucket{le="0.005",platform="slack"} 1');
    expect(text).toContain('genbot_ack_seconds_bucket{le="0.25",platform="slack"} 2');
    expect(text).toContain('genbot_jobs_queued_total{kind="mention"} 1');
    expect(text).toContain('genbot_jobs_refused_total{kind="imagine",reason="quota"} 2');
  });

  it("counts the presses of replies' feedback buttons by platform and rating", async () => {
    const metrics = new PromMetrics();
    metrics.replyFeedback({ platform: 'slack', rating: 'good' });
    metrics.replyFeedback({ platform: 'slack', rating: 'good' });
    metrics.replyFeedback({ platform: 'slack', rating: 'bad' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('genbot_reply_feedback_total{platform="slack",rating="good"} 2');
    expect(text).toContain('genbot_reply_feedback_total{platform="slack",rating="bad"} 1');
  });

  it("reports the event loop's delay", async () => {
    const metrics = new PromMetrics();
    // The delay histogram fills as the loop turns; let it turn past the sampling precision.
    await new Promise((resolve) => setImmediate(resolve));
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('keeps two instances apart', async () => {
    const one = new PromMetrics();
    const two = new PromMetrics();
    one.rateLimited({ platform: 'slack', route: 'chat.postMessage' });
    expect(await two.registry.metrics()).not.toContain('route="chat.postMessage"');
  });
});
