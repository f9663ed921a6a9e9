import http from 'node:http';
import https from 'node:https';
import type { Config } from '../config.js';
import { guardTarget } from './targets.js';

export type SendResult = {
  /** HTTP status, or null when no response came (network failure, timeout, refused target). */
  status: number | null;
  /** Null for a 2xx; otherwise what went wrong, in the caller's words (FailureTexts). */
  error: string | null;
  responsePreview: string | null;
  /** Seconds from a Retry-After header, when present and sane. */
  retryAfterSeconds: number | null;
  durationMs: number;
};

/** How a failed send reads in the error it records: each caller names its receiver its own way. */
export type FailureTexts = {
  /** The total timeout ran out. */
  timedOut(totalMs: number): string;
  /** The connection was not made within the connect timeout. */
  notConnected(connectMs: number): string;
  /** A network error (its code, or its message when it has none). */
  failed(code: string): string;
  /** A response other than 2xx (a 3xx included: redirects are not followed). */
  answered(status: number): string;
};

const GENERIC_TEXTS: FailureTexts = {
  timedOut: (ms) => `The receiver timed out after ${ms} ms`,
  notConnected: (ms) => `Could not connect to the receiver within ${ms} ms`,
  failed: (code) => `Request failed: ${code}`,
  answered: (status) => `The receiver returned HTTP ${status}`,
};

export type PostOptions = {
  headers: Record<string, string>;
  body: string;
  /** POST unless said (GET sends no body). */
  method?: 'POST' | 'GET';
  /** Bounds reaching the receiver (connect, and TLS when https). */
  connectMs: number;
  /** Bounds the whole exchange. */
  totalMs: number;
  texts?: FailureTexts;
  /**
   * For a target a merchant or an app chose: the delivery-time address rules of targets.ts
   * under this config (guardTarget). A refused target is not contacted; its result has a null
   * status and `Target refused: <reason>`.
   */
  guard?: Config;
};

const PREVIEW_BYTES = 1024;
// Keep-alive agents: a receiver gets many requests, and a new TLS handshake each time is waste.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 50 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 50 }) };

/** GET a page outside the platform (an app's privacy policy), with the same bounds, guard and outcome as `post`. */
export function get(url: URL, options: Omit<PostOptions, 'body' | 'method'>): Promise<SendResult> {
  return post(url, { ...options, body: '', method: 'GET' });
}

/**
 * POST to a receiver outside the platform (a webhook endpoint, the message relay). Never
 * throws: every outcome is a SendResult. Redirects are not followed (a 3xx is a failure like
 * any non-2xx). The connect timeout bounds reaching the receiver; the total timeout bounds
 * the whole exchange. Only the first KiB of the response is kept, as text safe to store and show.
 */
export function post(url: URL, options: PostOptions): Promise<SendResult> {
  const texts = options.texts ?? GENERIC_TEXTS;
  const guard = options.guard ? guardTarget(options.guard, url) : { ok: true as const };
  if (!guard.ok)
    return Promise.resolve({ status: null, error: `Target refused: ${guard.reason}`, responsePreview: null, retryAfterSeconds: null, durationMs: 0 });
  const { headers, body, connectMs, totalMs } = options;
  const lookup = guard.lookup;
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      resolve({ ...r, durationMs: Date.now() - started });
    };
    const fail = (error: string) => finish({ status: null, error, responsePreview: null, retryAfterSeconds: null });
    const mod = url.protocol === 'https:' ? https : http;
    const method = options.method ?? 'POST';
    const req = mod.request(url, {
      method,
      headers: method === 'POST' ? { ...headers, 'Content-Length': Buffer.byteLength(body) } : headers,
      agent: url.protocol === 'https:' ? agents['https:'] : agents['http:'],
      ...(lookup ? { lookup } : {}),
    });
    const total = setTimeout(() => {
      fail(texts.timedOut(totalMs));
      req.destroy();
    }, totalMs);
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const connect = setTimeout(() => {
        fail(texts.notConnected(connectMs));
        req.destroy();
      }, connectMs);
      socket.once('connect', () => clearTimeout(connect));
      socket.once('secureConnect', () => clearTimeout(connect));
      socket.once('close', () => clearTimeout(connect));
    });
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      // A refusal by the guard's lookup already reads `Target refused: <reason>`.
      fail(code === 'ETARGETREFUSED' ? err.message : texts.failed(code ?? err.message));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < PREVIEW_BYTES) {
          chunks.push(chunk.subarray(0, PREVIEW_BYTES - kept));
          kept += Math.min(chunk.length, PREVIEW_BYTES - kept);
        }
      });
      res.on('error', () => {});
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({
          status,
          error: ok ? null : texts.answered(status),
          responsePreview: textSafe(Buffer.concat(chunks)),
          retryAfterSeconds: parseRetryAfter(res.headers['retry-after']),
        });
      });
    });
    req.end(method === 'POST' ? body : undefined);
  });
}

/** Decoded as UTF-8 (invalid bytes replaced), control characters other than tab and newline removed. */
function textSafe(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return bytes.toString('utf8').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d{1,10}$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
