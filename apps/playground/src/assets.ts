import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { limitsModule } from './limits.js';

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c4dff"/><stop offset="1" stop-color="#00b0ff"/></linearGradient></defs><rect width="32" height="32" rx="8" fill="url(#g)"/><path d="M16 6l2.6 7.4L26 16l-7.4 2.6L16 26l-2.6-7.4L6 16l7.4-2.6z" fill="#fff"/></svg>`;

interface Asset {
  body: string;
  type: string;
}

/** Reads the page and the browser modules once: a few small files, served from memory. */
function loadAssets(): Map<string, Asset> {
  const here = dirname(fileURLToPath(import.meta.url));
  const require = createRequire(import.meta.url);
  // Package roots from their CommonJS entries (dist/x.js): htm's exports do not list package.json.
  const preact = dirname(dirname(require.resolve('preact')));
  const htm = dirname(dirname(require.resolve('htm')));
  const js = 'text/javascript; charset=utf-8';
  const read = (path: string) => readFileSync(path, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/m, '');
  const web = join(here, 'web');
  // Every module of the page, one per pane or part, imported by the browser itself.
  const modules = readdirSync(web)
    .filter((name) => name.endsWith('.js'))
    .map((name): [string, Asset] => [`/${name}`, { body: read(join(web, name)), type: js }]);
  return new Map([
    ['/', { body: read(join(web, 'index.html')), type: 'text/html; charset=utf-8' }],
    ...modules,
    ['/limits.js', { body: limitsModule(), type: js }],
    ['/style.css', { body: read(join(web, 'style.css')), type: 'text/css; charset=utf-8' }],
    ['/vendor/preact.js', { body: read(join(preact, 'dist', 'preact.module.js')), type: js }],
    ['/vendor/preact-hooks.js', { body: read(join(preact, 'hooks', 'dist', 'hooks.module.js')), type: js }],
    ['/vendor/htm.js', { body: read(join(htm, 'dist', 'htm.module.js')), type: js }],
  ]);
}

/** Serves the page, its modules (Preact and htm from node_modules, no bundler) and the icon. */
export function serveAssets(app: Hono): void {
  for (const [path, asset] of loadAssets()) {
    app.get(path, (c) => c.body(asset.body, 200, { 'content-type': asset.type, 'cache-control': 'no-cache' }));
  }
  app.get('/favicon.svg', (c) =>
    c.body(FAVICON, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }),
  );
  app.get('/favicon.ico', (c) => c.redirect('/favicon.svg'));
}
