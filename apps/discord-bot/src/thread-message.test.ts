import { describe, expect, it } from 'vitest';
import { toAttachmentRef } from './thread-message.js';

describe('toAttachmentRef', () => {
  it('uses the URL as the id and keeps the declared type and size', () => {
    expect(
      toAttachmentRef({ url: 'https://cdn.example/a/1/cat.png', name: 'cat.png', contentType: 'image/png', size: 1234 }),
    ).toEqual({ id: 'https://cdn.example/a/1/cat.png', name: 'cat.png', mimeType: 'image/png', size: 1234 });
  });

  it('leaves the type out when Discord gave none (core then goes by the name)', () => {
    expect(toAttachmentRef({ url: 'https://cdn.example/a/2/x.jpg', name: 'x.jpg', contentType: null, size: 9 })).toEqual({
      id: 'https://cdn.example/a/2/x.jpg',
      name: 'x.jpg',
      size: 9,
    });
  });
});
