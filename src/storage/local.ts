import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { equalBytes } from '../secrets/index.js';
import type { Clock } from '../clock.js';
import type { SecretsKey } from '../secrets/index.js';
import { multipartEtag, partEtag } from './etag.js';
import {
  MIN_PART_BYTES,
  StorageError,
  assertExpiry,
  assertPart,
  assertPartList,
  assertStorageKey,
  isStorageKey,
  type ObjectStorage,
  type UploadedPart,
} from './types.js';

const URL_PURPOSE = 'emporium:storage.local-url';
const UPLOAD_ID = /^[0-9a-f]{32}$/;

export type SignedUrlCheck = { ok: true; remainingSeconds: number } | { ok: false; reason: 'bad_signature' | 'expired' };

type Meta = { content_type: string; size: number; etag?: string };
type Upload = { key: string; content_type: string };

/**
 * Files under one folder: `objects/<key>` holds the bytes, `meta/<key>.json` the content type
 * and size (and a multipart object's etag). A multipart upload lives in `uploads/<uploadId>/`
 * (`upload.json`, then `<n>.part` per part, each written whole and renamed) until it completes
 * (its parts copied in order into a temporary file renamed onto the object) or is aborted; only
 * the folder holds its state, so another instance on the same folder can carry it on.
 *
 * URLs point at the web process (`GET /v1/media/files/:key?expires=&signature=`), signed with
 * HMAC-SHA256 over `<key>.<expires>` under a subkey of SECRETS_KEYS (the first key signs, any
 * configured key verifies, so a rotation does not break URLs already handed out).
 */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  private readonly root: string;

  constructor(
    dir: string,
    private readonly publicBaseUrl: string,
    private readonly keys: readonly SecretsKey[],
    private readonly clock: Clock,
  ) {
    this.root = resolve(dir);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const object = this.pathOf('objects', key);
    // Bytes first, then the metadata that makes them visible; each written whole and renamed.
    await writeAtomically(object, bytes);
    await this.writeMeta(key, { content_type: contentType, size: bytes.length });
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const meta = await this.readMeta(key);
    if (!meta) return null;
    const bytes = await readFile(this.pathOf('objects', key)).catch(nullIfMissing);
    return bytes ? { bytes, contentType: meta.content_type } : null;
  }

  async open(key: string): Promise<{ stream: Readable; contentType: string; size: number } | null> {
    const meta = await this.readMeta(key);
    if (!meta) return null;
    // Opened before its size is read: a rename onto the key afterwards does not change what this reads.
    const handle = await open(this.pathOf('objects', key), 'r').catch(nullIfMissing);
    if (!handle) return null;
    const { size } = await handle.stat();
    return { stream: handle.createReadStream(), contentType: meta.content_type, size };
  }

  async head(key: string): Promise<{ size: number; contentType: string } | null> {
    const meta = await this.readMeta(key);
    return meta ? { size: meta.size, contentType: meta.content_type } : null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf('meta', `${key}.json`), { force: true });
    await rm(this.pathOf('objects', key), { force: true });
  }

  async url(key: string, expiresInSeconds: number): Promise<string> {
    assertStorageKey(key);
    assertExpiry(expiresInSeconds);
    const expires = Math.floor(this.clock.now().getTime() / 1000) + expiresInSeconds;
    const signature = sign(this.currentKey(), key, expires).toString('hex');
    return `${this.publicBaseUrl}/v1/media/files/${encodeURIComponent(key)}?expires=${expires}&signature=${signature}`;
  }

  async startMultipart(key: string, contentType: string): Promise<{ uploadId: string }> {
    assertStorageKey(key);
    const uploadId = randomBytes(16).toString('hex');
    await writeAtomically(join(this.uploadDir(uploadId), 'upload.json'), Buffer.from(JSON.stringify({ key, content_type: contentType } satisfies Upload)));
    return { uploadId };
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, bytes: Buffer): Promise<{ etag: string }> {
    assertPart(partNumber, bytes);
    await this.readUpload(key, uploadId);
    await writeAtomically(join(this.uploadDir(uploadId), `${partNumber}.part`), bytes);
    // Aborted (or completed) meanwhile: the part must not stay behind in a folder nobody owns.
    if (!(await this.findUpload(key, uploadId))) {
      await rm(this.uploadDir(uploadId), { recursive: true, force: true });
      throw noSuchUpload(key);
    }
    return { etag: partEtag(bytes) };
  }

  async completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<{ size: number }> {
    assertPartList(parts);
    const upload = await this.findUpload(key, uploadId);
    if (!upload) {
      // Completed already by a process that did not live to record it: the same parts made this object.
      const meta = await this.readMeta(key);
      if (meta?.etag !== undefined && meta.etag === multipartEtag(parts)) return { size: meta.size };
      throw noSuchUpload(key);
    }
    const dir = this.uploadDir(uploadId);
    const files = parts.map((p) => join(dir, `${p.partNumber}.part`));
    for (const [i, file] of files.entries()) {
      const size = await stat(file).then((s) => s.size, nullIfMissing);
      if (size === null) throw new StorageError('invalid_part', `part ${parts[i]!.partNumber} of the upload is not stored`);
      if (size < MIN_PART_BYTES && i < files.length - 1) {
        throw new StorageError('part_too_small', `part ${parts[i]!.partNumber} is ${size} bytes; every part but the last must be at least ${MIN_PART_BYTES}`);
      }
    }
    const object = this.pathOf('objects', key);
    await mkdir(dirname(object), { recursive: true });
    const temp = `${object}.${randomBytes(6).toString('hex')}.tmp`;
    let size = 0;
    try {
      const out = await open(temp, 'wx');
      try {
        for (const [i, file] of files.entries()) {
          const hash = createHash('md5');
          for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
            hash.update(chunk);
            await out.write(chunk);
            size += chunk.length;
          }
          if (`"${hash.digest('hex')}"` !== parts[i]!.etag) throw new StorageError('invalid_part', `part ${parts[i]!.partNumber} is stored with another etag`);
        }
        await out.sync();
      } finally {
        await out.close();
      }
      await rename(temp, object);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    const etag = multipartEtag(parts);
    await this.writeMeta(key, { content_type: upload.content_type, size, ...(etag ? { etag } : {}) });
    await rm(dir, { recursive: true, force: true });
    return { size };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertStorageKey(key);
    if (!(await this.findUpload(key, uploadId))) return;
    await rm(this.uploadDir(uploadId), { recursive: true, force: true });
  }

  /** Checks a URL's signature first (so a changed `expires` is a bad signature), then its expiry. */
  verify(key: string, expires: string, signature: string): SignedUrlCheck {
    if (!isStorageKey(key) || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'bad_signature' };
    const given = Buffer.from(signature, 'hex');
    const valid = this.keys.some((k) => equalBytes(sign(k.key, key, Number(expires)), given));
    if (!valid) return { ok: false, reason: 'bad_signature' };
    const remainingSeconds = Number(expires) - Math.floor(this.clock.now().getTime() / 1000);
    return remainingSeconds > 0 ? { ok: true, remainingSeconds } : { ok: false, reason: 'expired' };
  }

  private currentKey(): Buffer {
    const first = this.keys[0];
    if (!first) throw new Error('no secrets key configured');
    return first.key;
  }

  private async readMeta(key: string): Promise<Meta | null> {
    if (!isStorageKey(key)) return null;
    const raw = await readFile(this.pathOf('meta', `${key}.json`), 'utf8').catch(nullIfMissing);
    return raw === null ? null : (JSON.parse(raw) as Meta);
  }

  private writeMeta(key: string, meta: Meta): Promise<void> {
    return writeAtomically(this.pathOf('meta', `${key}.json`), Buffer.from(JSON.stringify(meta)));
  }

  /** The upload of `key` with that id, or null when it is not (or no longer) there. */
  private async findUpload(key: string, uploadId: string): Promise<Upload | null> {
    assertStorageKey(key);
    if (!UPLOAD_ID.test(uploadId)) return null;
    const raw = await readFile(join(this.uploadDir(uploadId), 'upload.json'), 'utf8').catch(nullIfMissing);
    if (raw === null) return null;
    const upload = JSON.parse(raw) as Upload;
    return upload.key === key ? upload : null;
  }

  private async readUpload(key: string, uploadId: string): Promise<Upload> {
    const upload = await this.findUpload(key, uploadId);
    if (!upload) throw noSuchUpload(key);
    return upload;
  }

  private uploadDir(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new Error('not an upload id');
    return resolve(this.root, 'uploads', uploadId);
  }

  /** Keys are validated, and the resolved path must stay inside the folder anyway. */
  private pathOf(area: 'objects' | 'meta', name: string): string {
    assertStorageKey(area === 'meta' ? name.replace(/\.json$/, '') : name);
    const base = resolve(this.root, area);
    const path = resolve(base, name);
    if (!path.startsWith(base + sep)) throw new Error('storage key escapes the storage folder');
    return path;
  }
}

function noSuchUpload(key: string): StorageError {
  return new StorageError('no_such_upload', `no multipart upload of ${key} with that id (aborted, completed or never started)`);
}

function nullIfMissing(err: NodeJS.ErrnoException): null {
  if (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'ENOTDIR') return null;
  throw err;
}

function sign(key: Buffer, objectKey: string, expires: number): Buffer {
  const subkey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), URL_PURPOSE, 32));
  return createHmac('sha256', subkey).update(`${objectKey}.${expires}`).digest();
}

async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
