import { crc32, deflateSync } from 'node:zlib';

/**
 * A PNG encoder for images made in code (the demo store's product pictures, the tests' upload
 * files): 8-bit RGB or RGBA pixels, row-major, one IDAT chunk. `filter: 'sub'` stores each byte as
 * its difference from the pixel to its left, which makes smooth gradients compress well; `text`
 * adds a `tEXt` chunk with that payload (keyword, NUL, text) before the pixels.
 */
export function encodePng(width: number, height: number, channels: 3 | 4, pixels: Buffer, options: { filter?: 'none' | 'sub'; text?: Buffer } = {}): Buffer {
  if (pixels.length !== width * height * channels) throw new Error(`expected ${width * height * channels} bytes of pixels, got ${pixels.length}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = channels === 4 ? 6 : 2; // RGBA or RGB
  const stride = width * channels;
  const raw = Buffer.alloc(height * (1 + stride));
  for (let y = 0; y < height; y++) {
    const out = y * (1 + stride);
    const row = y * stride;
    if (options.filter === 'sub') {
      raw[out] = 1;
      for (let i = 0; i < stride; i++) raw[out + 1 + i] = (pixels[row + i]! - (i >= channels ? pixels[row + i - channels]! : 0)) & 0xff;
    } else {
      raw[out] = 0;
      pixels.copy(raw, out + 1, row, row + stride);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...(options.text ? [pngChunk('tEXt', options.text)] : []),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
