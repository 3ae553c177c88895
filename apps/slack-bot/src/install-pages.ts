import type { ServerResponse } from 'node:http';
import { copy, type InstallRefusal } from '@genbot/core/copy';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">
<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>
`;
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/** The page a person sees once the app is in their workspace. */
export function sendInstalled(res: ServerResponse, workspace: string | undefined): void {
  send(res, 200, page(copy.installedTitle, copy.installed(workspace)));
}

/** The page for a return from Slack that installed nothing: 4xx for what was wrong with the request, 502 when Slack refused. */
export function sendRefused(res: ServerResponse, reason: InstallRefusal): void {
  send(res, reason === 'failed' ? 502 : 400, page(copy.installRefusedTitle, copy.installRefused(reason)));
}
