import { createHash } from 'node:crypto';
import { ownValue } from '../../../own-keys.js';
import { isNum, isObj, quote } from '../json.js';
import type { BundleRule } from '../rule.js';
import { ASSET_CONTENT_TYPES, MAX_TOTAL_ASSET_BYTES } from '../schema.js';
import type { AssetEntry } from '../types.js';

export const assetEntries: BundleRule = {
  code: 'asset_entries',
  blocking: true,
  description:
    'Each asset: a path unique ignoring case, a content type that fits its extension, inline content or a media id (binary types by media id), size and sha256 of its content; all within the total size.',
  run(bundle, report) {
    const seen = new Map<string, number>();
    let total = 0;
    bundle.assets.forEach((raw, i) => {
      if (!isObj(raw)) return;
      const path = `renderer.assets.${i}`;
      const a = raw as Partial<Record<keyof AssetEntry, unknown>>;
      if (typeof a.path === 'string') {
        const first = seen.get(a.path.toLowerCase());
        if (first !== undefined) report(`${path}.path`, `is the same path as renderer.assets.${first}.path (paths are compared ignoring case)`);
        else seen.set(a.path.toLowerCase(), i);
      }
      const type = typeof a.content_type === 'string' ? ownValue(ASSET_CONTENT_TYPES, a.content_type) : undefined;
      if (typeof a.path === 'string' && type && typeof a.content_type === 'string') {
        const extension = /\.([A-Za-z0-9]+)$/.exec(a.path)?.[1]?.toLowerCase();
        if (!extension || !type.extensions.includes(extension)) {
          report(`${path}.content_type`, `${a.content_type} is for files ending ${type.extensions.map((e) => `.${e}`).join(' or ')}, not ${quote(a.path)}`);
        }
      }
      const inline = a.content !== undefined;
      if (inline === (a.media_id !== undefined)) {
        report(path, 'must have exactly one of content (inline UTF-8 text) or media_id (an uploaded file)');
      } else if (inline && type && !type.inline) {
        report(`${path}.content`, `${String(a.content_type)} is binary: upload it with POST /v1/media and give its media_id`);
      }
      if (typeof a.content === 'string') {
        const bytes = Buffer.from(a.content, 'utf8');
        if (isNum(a.size) && a.size !== bytes.length)
          report(`${path}.size`, `must be the content's length in UTF-8 bytes, ${bytes.length} (it says ${a.size})`);
        const sha = createHash('sha256').update(bytes).digest('hex');
        if (typeof a.sha256 === 'string' && a.sha256 !== sha) report(`${path}.sha256`, `does not match the content (its SHA-256 is ${sha})`);
      }
      if (isNum(a.size)) total += a.size;
    });
    if (total > MAX_TOTAL_ASSET_BYTES) report('renderer.assets', `must total at most ${MAX_TOTAL_ASSET_BYTES} bytes (they total ${total})`);
  },
};
