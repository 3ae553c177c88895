import { describe, expect, it } from 'vitest';
import { generateContentPath, joinPath, MESSAGES_PATH, parseBaseUrl } from './url.js';

describe('joining service paths onto the base URL', () => {
  it.each([
    ['https://api.example.com', '/v1/messages'],
    ['https://api.example.com/', '/v1/messages'],
    ['https://gw.example.com/proxy', '/proxy/v1/messages'],
    ['https://gw.example.com/proxy/', '/proxy/v1/messages'],
    ['https://gw.example.com/a/b//', '/a/b/v1/messages'],
  ])('%s keeps its prefix', (base, expected) => {
    expect(joinPath(parseBaseUrl(base), MESSAGES_PATH)).toBe(expected);
  });

  it('binds the pool to the origin, port included', () => {
    expect(parseBaseUrl('http://127.0.0.1:8080/p/').origin).toBe('http://127.0.0.1:8080');
  });

  it('URL-encodes the model id', () => {
    expect(generateContentPath('a/b c')).toBe('/v1beta/models/a%2Fb%20c:generateContent');
    expect(generateContentPath('gemini-x')).toBe('/v1beta/models/gemini-x:generateContent');
  });

  it('refuses what is not an http(s) URL', () => {
    expect(() => parseBaseUrl('not a url')).toThrow(TypeError);
    expect(() => parseBaseUrl('ftp://x')).toThrow(/http/);
  });
});
