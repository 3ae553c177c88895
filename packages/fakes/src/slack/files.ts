import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { mediaTypeOf } from './media.js';
import { TransferFaults, type RedirectFault } from '../transfer-faults.js';
import type { TransferFault } from './transfer-faults.js';
import type { SlackWorkspace } from './workspace.js';

/** What Slack answers an unauthenticated `url_private` request with: a sign-in page, status 200. */
const LOGIN_PAGE = `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="utf-8"><title>Slack</title></head>
<body><form id="signin_form" action="/signin" method="post"><h1>Sign in to Slack</h1>
<input type="email" name="email" placeholder="name@work-email.com"><button type="submit">Sign In</button></form></body></html>
`;

function html(body: string, status: number): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/**
 * File bytes in and out: the one-time upload URLs `files.getUploadURLExternal` hands out (multipart
 * with the bytes in part `body`, as @slack/web-api sends them, or a raw body), and `url_private`
 * downloads, which need the bot token as `Authorization: Bearer`.
 */
export class FileTransfers {
  readonly #workspace: SlackWorkspace;
  readonly #baseUrl: string;
  readonly #botToken: string;
  readonly #logger: Logger;
  /** Switched on by tests: upload URLs (valid ones) answering an error status instead of storing the bytes. */
  readonly uploadFaults = new TransferFaults<TransferFault>();
  /** Switched on by tests: authorized `url_private` downloads answering an error status. */
  readonly downloadFaults = new TransferFaults<TransferFault>();
  /** Switched on by tests: authorized `url_private` downloads answering a redirect. */
  readonly downloadRedirects = new TransferFaults<RedirectFault>();
  /** Upload URL secret -> file ID. */
  readonly #uploads = new Map<string, string>();

  constructor(deps: { workspace: SlackWorkspace; baseUrl: string; botToken: string; logger: Logger }) {
    this.#workspace = deps.workspace;
    this.#baseUrl = deps.baseUrl;
    this.#botToken = deps.botToken;
    this.#logger = deps.logger;
  }

  uploadUrl(fileId: string): string {
    const secret = randomBytes(24).toString('base64url');
    this.#uploads.set(secret, fileId);
    return `${this.#baseUrl}upload/v1/${secret}`;
  }

  async handleUpload(secret: string, request: Request): Promise<Response> {
    const fileId = this.#uploads.get(secret);
    const file = fileId !== undefined ? this.#workspace.files.get(fileId) : undefined;
    if (!file) return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
    const failed = this.uploadFaults.take()?.status;
    if (failed !== undefined) {
      // Read the bytes first: answering mid-upload would look like a dropped connection, not an error status.
      await request.arrayBuffer();
      return new Response(`Upload failed (${failed})`, { status: failed, headers: { 'content-type': 'text/plain' } });
    }
    const bytes = await this.#readUpload(request);
    if (bytes === undefined)
      return new Response('Bad Request: no file data', { status: 400, headers: { 'content-type': 'text/plain' } });
    this.#uploads.delete(secret);
    file.bytes = bytes;
    Object.assign(file, mediaTypeOf(file.name, bytes));
    if (bytes.length !== file.declaredLength) {
      this.#logger.warn(
        { fileId: file.id, declared: file.declaredLength, received: bytes.length },
        'slack fake: upload length differs from files.getUploadURLExternal length',
      );
    }
    this.#workspace.changed();
    return new Response(`OK - ${bytes.length}`, {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }

  async #readUpload(request: Request): Promise<Buffer | undefined> {
    const contentType = request.headers.get('content-type') ?? '';
    if (!contentType.includes('multipart/form-data')) return Buffer.from(await request.arrayBuffer());
    const form = await request.formData();
    const part = form.get('body') ?? form.get('file');
    if (part === null) return undefined;
    return typeof part === 'string' ? Buffer.from(part) : Buffer.from(await part.arrayBuffer());
  }

  /** `teamFile` is the `{team}-{file}` path segment of `url_private`. */
  handleDownload(teamFile: string, request: Request): Response {
    const authorization = request.headers.get('authorization') ?? '';
    if (authorization !== `Bearer ${this.#botToken}`) return html(LOGIN_PAGE, 200);
    const redirect = this.downloadRedirects.take();
    if (redirect !== undefined) return new Response(null, { status: 302, headers: { location: redirect.location } });
    const failed = this.downloadFaults.take()?.status;
    // A 200 instead of the file is Slack's sign-in page: what a token without files:read gets.
    if (failed === 200) return html(LOGIN_PAGE, 200);
    if (failed !== undefined) return html(`<!DOCTYPE html><html><body>Error ${failed}</body></html>`, failed);
    const prefix = `${this.#workspace.teamId}-`;
    const file = teamFile.startsWith(prefix) ? this.#workspace.files.get(teamFile.slice(prefix.length)) : undefined;
    if (!file?.bytes) return html('<!DOCTYPE html><html><body>File not found</body></html>', 404);
    return new Response(new Uint8Array(file.bytes), {
      status: 200,
      headers: {
        'content-type': file.mimetype,
        'content-length': String(file.bytes.length),
        'content-disposition': `attachment; filename="${encodeURIComponent(file.name)}"`,
      },
    });
  }
}
