import { describe, expect, it } from 'vitest';
import { sniffImage } from './image-info.js';

describe('sniffImage', () => {
  it('reads JPEG dimensions from the SOF segment after other segments', () => {
    const app0 = [0xff, 0xe0, 0x00, 0x04, 0x00, 0x00];
    const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x02, 0x58, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    const jpeg = Buffer.from([0xff, 0xd8, ...app0, ...sof0]);
    expect(sniffImage(jpeg)).toEqual({ contentType: 'image/jpeg', height: 300, width: 600 });
  });

  it('reads GIF and WebP (VP8X) dimensions', () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x40, 0x01, 0xf0, 0x00])]);
    expect(sniffImage(gif)).toEqual({ contentType: 'image/gif', width: 320, height: 240 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1023, 24, 3);
    webp.writeUIntLE(767, 27, 3);
    expect(sniffImage(webp)).toEqual({ contentType: 'image/webp', width: 1024, height: 768 });
  });

  it('leaves non-images alone', () => {
    expect(sniffImage(Buffer.from('hello world, not an image'))).toBeUndefined();
  });
});
