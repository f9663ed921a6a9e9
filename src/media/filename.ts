import { EXTENSIONS, type ImageInfo } from './image.js';

const MAX_LENGTH = 200;

/**
 * The client's file name made safe to show and to use in a download header: the last path
 * segment only; letters, digits, spaces and `._-()` kept (anything else becomes `_`); no
 * leading dots; at most 200 characters; and an extension that matches the detected type
 * (`photo.jpeg` stays, `photo.png` holding a JPEG becomes `photo.png.jpg`).
 */
export function sanitizeFilename(original: string, image: ImageInfo): string {
  const safe = (original.split(/[/\\]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .trim();
  const dot = safe.lastIndexOf('.');
  const ext = dot > 0 ? safe.slice(dot + 1).toLowerCase() : '';
  const [base, extension] = EXTENSIONS[image.contentType].includes(ext) ? [safe.slice(0, dot), ext] : [safe, image.extension];
  const trimmed = [...base.replace(/[.\s]+$/, '')].slice(0, MAX_LENGTH - extension.length - 1).join('');
  return `${trimmed || 'image'}.${extension}`;
}
