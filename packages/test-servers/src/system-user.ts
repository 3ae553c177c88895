import { readFileSync } from 'node:fs';

export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

/** A user from /etc/passwd, or undefined when there is none by that name. */
export function systemUser(name: string): SystemUser | undefined {
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/**
 * Who a server that refuses root (PostgreSQL) runs as: the named system user
 * when this process is root, otherwise this process's own user.
 */
export function unprivilegedUser(name: string): SystemUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const user = systemUser(name);
  if (user === undefined) throw new Error(`running as root, and there is no "${name}" user to run the server as`);
  return user;
}
