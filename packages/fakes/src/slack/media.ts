/** Slack derives a file's type from its content and name; the fake does the same for the formats bots exchange. */
export interface MediaType {
  mimetype: string;
  filetype: string;
}

const BY_EXTENSION: Record<string, MediaType> = {
  png: { mimetype: 'image/png', filetype: 'png' },
  jpg: { mimetype: 'image/jpeg', filetype: 'jpg' },
  jpeg: { mimetype: 'image/jpeg', filetype: 'jpg' },
  gif: { mimetype: 'image/gif', filetype: 'gif' },
  webp: { mimetype: 'image/webp', filetype: 'webp' },
  txt: { mimetype: 'text/plain', filetype: 'text' },
  md: { mimetype: 'text/plain', filetype: 'markdown' },
  json: { mimetype: 'application/json', filetype: 'json' },
  pdf: { mimetype: 'application/pdf', filetype: 'pdf' },
};

const BINARY: MediaType = { mimetype: 'application/octet-stream', filetype: 'binary' };

function sniff(bytes: Buffer): MediaType | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return BY_EXTENSION.png;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return BY_EXTENSION.jpg;
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return BY_EXTENSION.gif;
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return BY_EXTENSION.webp;
  return undefined;
}

export function mediaTypeOf(name: string, bytes?: Buffer): MediaType {
  const sniffed = bytes ? sniff(bytes) : undefined;
  if (sniffed) return sniffed;
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension !== undefined ? BY_EXTENSION[extension] : undefined) ?? BINARY;
}
