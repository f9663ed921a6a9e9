/**
 * What an uploaded file is, decided from its bytes alone (never its name or the client's
 * content type), and its pixel size read from the format's header. Each reader checks every
 * offset against the length first: a short or malformed file is `damaged`, never an exception.
 */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
export type ImageInfo = { contentType: ImageType; extension: string; width: number; height: number };
export type ImageCheck = { ok: true; image: ImageInfo } | { ok: false; reason: 'unsupported' | 'damaged' };

export const EXTENSIONS: Record<ImageType, string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
};

/** The largest side we accept (JPEG's own limit; larger claims in other formats are damage or abuse). */
const MAX_SIDE = 65535;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const startsWith = (b: Buffer, prefix: Buffer | string, at = 0) => {
  const p = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : prefix;
  return b.length >= at + p.length && b.subarray(at, at + p.length).equals(p);
};

export function inspectImage(bytes: Buffer): ImageCheck {
  let size: { width: number; height: number } | null;
  let contentType: ImageType;
  if (startsWith(bytes, PNG_SIGNATURE)) [contentType, size] = ['image/png', pngSize(bytes)];
  else if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) [contentType, size] = ['image/jpeg', jpegSize(bytes)];
  else if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) [contentType, size] = ['image/gif', gifSize(bytes)];
  else if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) [contentType, size] = ['image/webp', webpSize(bytes)];
  else return { ok: false, reason: 'unsupported' };
  if (!size || size.width < 1 || size.height < 1 || size.width > MAX_SIDE || size.height > MAX_SIDE) return { ok: false, reason: 'damaged' };
  return { ok: true, image: { contentType, extension: EXTENSIONS[contentType][0]!, ...size } };
}

/** IHDR must come first; every chunk must fit in the file; the file must reach IEND. */
function pngSize(b: Buffer): { width: number; height: number } | null {
  if (b.length < 33 || b.readUInt32BE(8) !== 13 || !startsWith(b, 'IHDR', 12)) return null;
  const size = { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  let at = 8;
  while (at + 12 <= b.length) {
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > b.length) return null;
    if (type === 'IEND') return size;
    at = end;
  }
  return null;
}

/** Walks the marker segments to the first SOF (frame header); an EOI must follow it. */
function jpegSize(b: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    const length = b.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > b.length) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (length < 8) return null;
      const size = { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
      return hasEoiAfter(b, at + 2 + length) ? size : null;
    }
    at += 2 + length;
  }
  return null;
}

function hasEoiAfter(b: Buffer, from: number): boolean {
  const eoi = b.lastIndexOf(Buffer.from([0xff, 0xd9]));
  return eoi >= from;
}

/** Logical screen size from the header; the file must end with the trailer byte (0x3B). */
function gifSize(b: Buffer): { width: number; height: number } | null {
  if (b.length < 14 || b[b.length - 1] !== 0x3b) return null;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

/** RIFF length must fit in the file; the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webpSize(b: Buffer): { width: number; height: number } | null {
  if (b.length < 30) return null;
  const riffEnd = 8 + b.readUInt32LE(4);
  if (riffEnd > b.length || riffEnd < 30) return null;
  const chunk = b.toString('latin1', 12, 16);
  const chunkSize = b.readUInt32LE(16);
  if (20 + chunkSize > riffEnd) return null;
  if (chunk === 'VP8X') {
    if (chunkSize < 10) return null;
    return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  }
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height (2 bits of scale each).
    if (chunkSize < 10 || b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    // Signature 0x2f, then width-1 and height-1 in 14 bits each, little-endian bit order.
    if (chunkSize < 5 || b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}
