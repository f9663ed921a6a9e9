import { encodePng } from '../../src/dev/png.js';

/** Small, valid image files built byte by byte, for upload tests. */

/** A white RGBA PNG; `padding` bytes of a tEXt comment make it larger without changing its pixels. */
export function png(width = 1, height = 1, padding = 0): Buffer {
  const text = padding > 0 ? Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(padding, 0x41)]) : undefined;
  return encodePng(width, height, 4, Buffer.alloc(width * height * 4, 0xff), { text });
}

export function gif(width = 1, height = 1): Buffer {
  const bytes = Buffer.from('474946383961010001008000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

export function jpeg(width = 1, height = 1): Buffer {
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  const sof0 = Buffer.from('ffc0001108000000000301220002110103110100', 'hex').subarray(0, 19);
  sof0.writeUInt16BE(height, 5);
  sof0.writeUInt16BE(width, 7);
  const sos = Buffer.from('ffda000c03010002110311003f00', 'hex');
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, sos, Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56]), Buffer.from([0xff, 0xd9])]);
}

function riff(chunk: string, data: Buffer): Buffer {
  const padded = data.length % 2 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
  const header = Buffer.alloc(8);
  header.write(chunk, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WEBP'), header, padded]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
}

/** Lossless (VP8L) WebP header with the given size. */
export function webp(width = 1, height = 1): Buffer {
  const data = Buffer.alloc(10);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  return riff('VP8L', data);
}

/** Lossy (VP8) WebP header. */
export function webpLossy(width: number, height: number): Buffer {
  const data = Buffer.alloc(16);
  data.set([0x9d, 0x01, 0x2a], 3);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return riff('VP8 ', data);
}

/** Extended (VP8X) WebP header. */
export function webpExtended(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', data);
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
