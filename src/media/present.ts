import type { MediaDocument } from './models.js';

export type MediaView = {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  width: number;
  height: number;
  alt: string | null;
  /** A signed URL, valid for a limited time; not part of event payloads. */
  url?: string;
  created_at: string;
};

export const presentMedia = (m: MediaDocument, url?: string): MediaView => ({
  id: m._id.toHexString(),
  filename: m.filename,
  content_type: m.content_type,
  size: m.size,
  width: m.width,
  height: m.height,
  alt: m.alt,
  ...(url !== undefined ? { url } : {}),
  created_at: m.created_at.toISOString(),
});
