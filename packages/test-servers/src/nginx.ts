import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveOnFreePort } from './on-free-port.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { unprivilegedUser } from './system-user.js';

export const NGINX_INSTALL_HINT = 'apt-get install nginx';

/** Debian's nginx, or NGINX_BIN when set; undefined when there is none. */
export function findNginx(): string | undefined {
  const candidates =
    process.env.NGINX_BIN !== undefined ? [process.env.NGINX_BIN] : ['/usr/sbin/nginx', '/usr/local/sbin/nginx'];
  return candidates.find((path) => existsSync(path));
}

export interface NginxOptions {
  /** `host:port` of each backend, e.g. two Slack replicas: `['127.0.0.1:4001', '127.0.0.1:4002']`. */
  upstreams: readonly string[];
  startTimeoutMs?: number;
}

/** nginx balancing HTTP over `upstreams`, as the compose file's load balancer does. */
export interface NginxServer {
  readonly port: number;
  /** The temporary prefix: nginx.conf, nginx.pid, logs/ and temp files. */
  readonly directory: string;
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** The access log so far: one line a request, with the upstream that answered it. */
  accessLog(): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  close(): Promise<void>;
}

/**
 * nginx in a temporary prefix on a free loopback port. As root its workers run
 * as `www-data`, which then owns the prefix: the default `nobody` could not
 * enter a private temporary directory.
 */
export async function startNginx(options: NginxOptions): Promise<NginxServer> {
  const command = findNginx();
  if (command === undefined) throw new Error(`nginx is not installed (${NGINX_INSTALL_HINT})`);
  if (options.upstreams.length === 0) throw new Error('startNginx: give at least one upstream');
  const user = unprivilegedUser('www-data');
  const root = await mkdtemp(join(tmpdir(), 'genbot-nginx-'));
  const configFile = join(root, 'nginx.conf');
  await mkdir(join(root, 'logs'));
  await mkdir(join(root, 'temp'));

  const launch = async (port: number): Promise<ServerProcess> => {
    await writeFile(configFile, nginxConfig({ root, port, upstreams: options.upstreams, user: user?.name }));
    if (user !== undefined) {
      for (const path of [root, join(root, 'logs'), join(root, 'temp')]) await chown(path, user.uid, user.gid);
    }
    return startServerProcess({
      name: 'nginx',
      command,
      // -e: the log for messages before the configuration is read, which defaults to /var/log/nginx.
      args: ['-p', root, '-c', configFile, '-e', join(root, 'logs', 'error.log')],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      // The master binds the listening socket before it starts workers.
      readyLine: /start worker process/,
      startTimeoutMs: options.startTimeoutMs ?? 15_000,
    });
  };

  const served = await serveOnFreePort({
    directory: root,
    launch,
    portTaken: /Address already in use/,
    // SIGQUIT: graceful, requests in flight finish.
    signals: { stop: 'SIGQUIT', close: 'SIGTERM' },
  });
  return {
    ...served,
    directory: root,
    url: `http://127.0.0.1:${served.port}`,
    accessLog: () => readFile(join(root, 'logs', 'access.log'), 'utf8').catch(() => ''),
  };
}

function nginxConfig(input: { root: string; port: number; upstreams: readonly string[]; user: string | undefined }) {
  const temp = (name: string) => join(input.root, 'temp', name);
  return `${input.user === undefined ? '' : `user ${input.user};\n`}daemon off;
worker_processes 1;
pid ${join(input.root, 'nginx.pid')};
error_log ${join(input.root, 'logs', 'error.log')} notice;
error_log stderr notice;

events {
  worker_connections 1024;
}

http {
  log_format upstream '$remote_addr "$request" $status $upstream_addr';
  access_log ${join(input.root, 'logs', 'access.log')} upstream;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  client_max_body_size 25m;

  upstream app {
${input.upstreams.map((upstream) => `    server ${upstream};`).join('\n')}
  }

  server {
    listen 127.0.0.1:${input.port};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Connection "";
      # A replica that is gone or draining hands the request to the next one. Slack POSTs are resent
      # too: a refused one did nothing, and events carry an id the replicas de-duplicate on.
      proxy_next_upstream error http_502 http_503 non_idempotent;
    }
  }
}
`;
}
