import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseUrlError } from './database-url-error.js';
import { parseDatabaseUrl, redactUrl } from './database-url.js';

describe('parseDatabaseUrl', () => {
  it('defaults to ./data/genbot.db when DATABASE_URL is unset or empty', () => {
    const expected = {
      dialect: 'sqlite',
      path: resolve('data/genbot.db'),
      display: `sqlite:${resolve('data/genbot.db')}`,
    };
    expect(parseDatabaseUrl(undefined)).toEqual(expected);
    expect(parseDatabaseUrl('  ')).toEqual(expected);
  });

  it('reads sqlite:PATH, relative or absolute, and sqlite::memory:', () => {
    expect(parseDatabaseUrl('sqlite:var/bot.db')).toMatchObject({ dialect: 'sqlite', path: resolve('var/bot.db') });
    expect(parseDatabaseUrl('sqlite:/srv/genbot/bot.db')).toMatchObject({ path: '/srv/genbot/bot.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({
      dialect: 'sqlite',
      path: ':memory:',
      display: 'sqlite::memory:',
    });
  });

  it('reads postgres:// and postgresql:// URLs, keeping parameters for pg and the password out of display', () => {
    const url = 'postgresql://genbot:s3cr%40t@db.internal:6543/genbot?sslmode=require&application_name=genbot';
    expect(parseDatabaseUrl(url)).toEqual({
      dialect: 'postgres',
      connectionString: url,
      display: 'postgresql://genbot@db.internal:6543/genbot',
    });
    expect(parseDatabaseUrl('postgres://localhost/genbot')).toMatchObject({ display: 'postgres://localhost/genbot' });
  });

  it('names DATABASE_URL, and hides the password, when the value fits no database', () => {
    const cases: [string, RegExp][] = [
      [
        'mysql://root:hunter2@db/genbot',
        /^DATABASE_URL must be sqlite:PATH, postgres:\/\/… or postgresql:\/\/…, got "mysql:\/\/root:\*\*\*@db\/genbot"$/,
      ],
      ['genbot.db', /^DATABASE_URL must be sqlite:PATH/],
      ['sqlite:', /^DATABASE_URL "sqlite:" names no file: use sqlite:PATH$/],
      ['postgres://user:hunter2@[::1', /^DATABASE_URL is not a valid URL \(postgres:\/\/user:\*\*\*@\[::1\)/],
    ];
    for (const [value, message] of cases) {
      expect(() => parseDatabaseUrl(value)).toThrow(DatabaseUrlError);
      expect(() => parseDatabaseUrl(value)).toThrow(message);
    }
  });
});

describe('redactUrl', () => {
  it('replaces the password and leaves URLs without one alone', () => {
    expect(redactUrl('postgres://u:p@h/d')).toBe('postgres://u:***@h/d');
    expect(redactUrl('postgres://u@h/d')).toBe('postgres://u@h/d');
    expect(redactUrl('x://u:p@ss@h/[')).toBe('x://u:***@h/[');
  });
});
