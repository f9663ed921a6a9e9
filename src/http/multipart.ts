import { Writable } from 'node:stream';
import { errors, formidable, multipart } from 'formidable';
import { PlatformError } from '../errors.js';
import type { AppContext } from './context.js';

export type UploadedFile = { filename: string; bytes: Buffer };
export type MultipartForm = { fields: Record<string, string | string[]>; files: Record<string, UploadedFile[]> };

export type MultipartLimits = {
  /** Largest file (and total of all files) in bytes: over it is 413, decided while streaming. */
  maxFileBytes: number;
  maxFiles?: number;
  maxFields?: number;
  maxFieldsBytes?: number;
};

/** Room for part headers, boundaries and small text fields around the file. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Read a multipart body (after authentication, in the route that accepts it). Files are kept
 * in memory, never written to a temporary folder, so nothing is left behind on any outcome;
 * the limits bound that memory: the declared Content-Length is checked before a byte is read,
 * and the bytes actually received while streaming.
 */
export async function readMultipart(ctx: AppContext, limits: MultipartLimits): Promise<MultipartForm> {
  if (!ctx.is('multipart/form-data')) {
    throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'The request body must be multipart/form-data');
  }
  const maxFieldsBytes = limits.maxFieldsBytes ?? 16 * 1024;
  const maxRequestBytes = limits.maxFileBytes + maxFieldsBytes + ENVELOPE_BYTES;
  const tooLarge = () => new PlatformError('payload_too_large', 'payload_too_large', `The file is larger than ${limits.maxFileBytes} bytes`);
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxRequestBytes) throw tooLarge();

  const buffers = new Map<object, Buffer[]>();
  const form = formidable({
    enabledPlugins: [multipart],
    maxFiles: limits.maxFiles ?? 1,
    maxFileSize: limits.maxFileBytes,
    maxTotalFileSize: limits.maxFileBytes,
    maxFields: limits.maxFields ?? 10,
    maxFieldsSize: maxFieldsBytes,
    allowEmptyFiles: false,
    minFileSize: 1,
    fileWriteStreamHandler: (file) => {
      const chunks: Buffer[] = [];
      buffers.set(file as object, chunks);
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      });
    },
  });
  // Throwing from a progress listener fails the parse (formidable catches it around write).
  form.on('progress', (received: number) => {
    if (received > maxRequestBytes) throw tooLarge();
  });
  try {
    const [fields, files] = await form.parse(ctx.req);
    // Part names are the client's: built as own properties (a part named __proto__ is a part like any other).
    return {
      fields: Object.fromEntries(Object.entries(fields).flatMap(([name, values]) => (values ? [[name, values.length === 1 ? values[0]! : values]] : []))),
      files: Object.fromEntries(
        Object.entries(files).map(([name, list]) => [
          name,
          (list ?? []).map((f) => ({ filename: f.originalFilename ?? '', bytes: Buffer.concat(buffers.get(f) ?? []) })),
        ]),
      ),
    };
  } catch (err) {
    // Whatever is left of the body is read and dropped, so the client gets our answer.
    ctx.req.resume();
    throw toPlatformError(err, tooLarge);
  } finally {
    buffers.clear();
  }
}

function toPlatformError(err: unknown, tooLarge: () => PlatformError): PlatformError {
  if (err instanceof PlatformError) return err;
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case errors.biggerThanMaxFileSize:
    case errors.biggerThanTotalMaxFileSize:
      return tooLarge();
    case errors.maxFieldsSizeExceeded:
      return new PlatformError('payload_too_large', 'payload_too_large', 'The form fields are too large');
    case errors.maxFilesExceeded:
      return invalidMultipart('Too many files: send one file');
    case errors.maxFieldsExceeded:
      return invalidMultipart('Too many form fields');
    case errors.noEmptyFiles:
    case errors.smallerThanMinFileSize:
      return invalidMultipart('The file is empty');
    default:
      return invalidMultipart('The multipart body could not be read');
  }
}

const invalidMultipart = (message: string) => new PlatformError('invalid_data', 'invalid_multipart', message);
