import { describe, expect, it } from 'vitest';
import { decodeLocation } from './download.js';
import { toAttachmentRef, type AttachmentData } from './thread-message.js';

const png: AttachmentData = {
  id: '42',
  url: 'https://cdn.discordapp.com/attachments/1/42/cat.png?ex=1&is=2&hm=3',
  name: 'cat.png',
  contentType: 'image/png',
  size: 1234,
  width: 64,
  height: 48,
  ephemeral: false,
  duration: null,
  waveform: null,
};
const source = { channelId: '1', messageId: '7', isVoiceMessage: false };

describe('toAttachmentRef', () => {
  it('keeps the declared type and size, and where to fetch the attachment again', () => {
    const ref = toAttachmentRef(png, source);
    expect(ref).toMatchObject({ name: 'cat.png', mimeType: 'image/png', size: 1234 });
    expect(decodeLocation(ref.id)).toEqual({ url: png.url, channelId: '1', messageId: '7', attachmentId: '42' });
  });

  it('marks an attachment without a type as a picture when Discord gave its pixel size', () => {
    expect(toAttachmentRef({ ...png, name: 'photo', contentType: null }, source).mimeType).toBe('image/*');
  });

  it('leaves the type out when Discord gave neither type nor size (core then goes by the name)', () => {
    const ref = toAttachmentRef({ ...png, name: 'x.jpg', contentType: null, width: null, height: null }, source);
    expect(ref.mimeType).toBeUndefined();
    expect(ref.name).toBe('x.jpg');
  });
});

describe('decodeLocation', () => {
  it('reads a bare URL as a location without a message', () => {
    expect(decodeLocation('https://cdn.discordapp.com/attachments/1/2/a.png')).toEqual({
      url: 'https://cdn.discordapp.com/attachments/1/2/a.png',
    });
  });
});
