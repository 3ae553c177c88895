// The containers' health check: exits 0 when this process's GET /readyz answers 200, 1 with the
// reason otherwise. The image has no curl; node is there, and runs this as its own process.
const port = process.env.HEALTH_PORT;
if (port === undefined || port === '') {
  console.error('not ready: HEALTH_PORT is not set, so nothing serves /readyz');
  process.exit(1);
}
try {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2500) });
  if (!response.ok) console.error(`not ready: ${(await response.text()).trim()}`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  console.error(`not ready: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
