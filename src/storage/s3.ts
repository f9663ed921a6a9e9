import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type { Clock } from '../clock.js';
import type { S3Config } from '../config.js';
import { multipartEtag } from './etag.js';
import { StorageError, assertExpiry, assertPart, assertPartList, assertStorageKey, isStorageKey, type ObjectStorage, type UploadedPart } from './types.js';

const REQUEST_TIMEOUT_MS = 30_000;
const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * An S3-compatible bucket through the AWS SDK v3 (`@aws-sdk/client-s3`): objects, multipart
 * uploads, and presigned GET URLs (`@aws-sdk/s3-request-presigner`, signed at the platform's
 * clock). Virtual-hosted addressing (`<bucket>.<endpoint host>`) unless S3_FORCE_PATH_STYLE
 * (`<endpoint>/<bucket>/<key>`: SeaweedFS, MinIO and most self-hosted servers). Checksums beyond
 * SigV4's payload hash are sent only where the API requires them, which every compatible server
 * accepts.
 */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    config: S3Config,
    private readonly clock: Clock,
  ) {
    this.bucket = config.bucket;
    // The SDK warns once per process that versions published after January 2027 will need
    // Node 22; ours is pinned (package.json) and runs on the Node 20 this platform supports.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { requestTimeout: REQUEST_TIMEOUT_MS, connectionTimeout: CONNECTION_TIMEOUT_MS },
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertStorageKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const object = await this.getObject(key);
    if (!object) return null;
    return { bytes: Buffer.from(await object.Body!.transformToByteArray()), contentType: object.ContentType ?? 'application/octet-stream' };
  }

  async open(key: string): Promise<{ stream: Readable; contentType: string; size: number } | null> {
    const object = await this.getObject(key);
    if (!object) return null;
    return { stream: object.Body as Readable, contentType: object.ContentType ?? 'application/octet-stream', size: object.ContentLength ?? 0 };
  }

  async head(key: string): Promise<{ size: number; contentType: string } | null> {
    const head = await this.headObject(key);
    return head ? { size: head.size, contentType: head.contentType } : null;
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      // S3 answers 204 whether or not the key existed; some compatible servers say 404.
      if (!isNotFound(err)) throw err;
    }
  }

  async url(key: string, expiresInSeconds: number): Promise<string> {
    assertStorageKey(key);
    assertExpiry(expiresInSeconds);
    return await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
      signingDate: this.clock.now(),
    });
  }

  async startMultipart(key: string, contentType: string): Promise<{ uploadId: string }> {
    assertStorageKey(key);
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }));
    if (!UploadId) throw new Error(`S3 started a multipart upload of ${key} without an upload id`);
    return { uploadId: UploadId };
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, bytes: Buffer): Promise<{ etag: string }> {
    assertStorageKey(key);
    assertPart(partNumber, bytes);
    try {
      const { ETag } = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: bytes, ContentLength: bytes.length }),
      );
      if (!ETag) throw new Error(`S3 stored part ${partNumber} of ${key} without an etag`);
      return { etag: ETag };
    } catch (err) {
      throw translate(err, key);
    }
  }

  async completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<{ size: number }> {
    assertStorageKey(key);
    assertPartList(parts);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    } catch (err) {
      const refusal = translate(err, key);
      if (!(refusal instanceof StorageError && refusal.code === 'no_such_upload')) throw refusal;
      // Completed already by a process that did not live to record it: the same parts made this object.
      const head = await this.headObject(key);
      const expected = multipartEtag(parts);
      if (!head || expected === null || unquoted(head.etag) !== unquoted(expected)) throw refusal;
    }
    // CompleteMultipartUpload does not say the size; the object does.
    const head = await this.headObject(key);
    if (!head) throw new Error(`S3 completed the multipart upload of ${key}, but the object is not there`);
    return { size: head.size };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertStorageKey(key);
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  }

  /** Closes the client's connections (tests that make many instances). */
  close(): void {
    this.client.destroy();
  }

  private async getObject(key: string) {
    if (!isStorageKey(key)) return null;
    try {
      return await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  private async headObject(key: string): Promise<{ size: number; contentType: string; etag: string } | null> {
    if (!isStorageKey(key)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream', etag: head.ETag ?? '' };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }
}

const unquoted = (etag: string) => etag.replace(/^"|"$/g, '');

function isNotFound(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes(err.name));
}

/** S3's refusals of a multipart upload, as the contract's StorageError; anything else as it came. */
function translate(err: unknown, key: string): unknown {
  if (!(err instanceof S3ServiceException)) return err;
  if (err.name === 'NoSuchUpload' || (err.$metadata.httpStatusCode === 404 && err.name !== 'NoSuchBucket')) {
    return new StorageError('no_such_upload', `no multipart upload of ${key} with that id (aborted, completed or never started)`, { cause: err });
  }
  if (err.name === 'InvalidPart' || err.name === 'InvalidPartOrder')
    return new StorageError('invalid_part', `S3 refused the parts of ${key}: ${err.message}`, { cause: err });
  if (err.name === 'EntityTooSmall') return new StorageError('part_too_small', `S3 refused the parts of ${key}: ${err.message}`, { cause: err });
  return err;
}
