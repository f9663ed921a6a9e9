import { createHash } from 'node:crypto';
import type { UploadedPart } from './types.js';

/** A part's etag as S3 gives it: the MD5 of its bytes in hex, in double quotes. */
export function partEtag(bytes: Buffer): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}

/**
 * The etag of an object made by a multipart upload, as S3 computes it: the MD5 of the parts'
 * MD5s (as bytes, in order), a dash and the number of parts. It tells whether an object already
 * under a key is the one these parts make (a completion repeated after its answer was lost).
 */
export function multipartEtag(parts: readonly UploadedPart[]): string | null {
  const hash = createHash('md5');
  for (const { etag } of parts) {
    const hex = etag.replace(/^"|"$/g, '');
    if (!/^[0-9a-f]{32}$/i.test(hex)) return null;
    hash.update(Buffer.from(hex, 'hex'));
  }
  return `"${hash.digest('hex')}-${parts.length}"`;
}
