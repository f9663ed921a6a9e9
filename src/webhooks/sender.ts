import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export type SendResult = {
  /** HTTP status, or null when no response came (network failure, timeout). */
  status: number | null;
  error: string | null;
  responsePreview: string | null;
  /** Seconds from a Retry-After header, when present and sane. */
  retryAfterSeconds: number | null;
  durationMs: number;
};

const PREVIEW_BYTES = 1024;
// Keep-alive agents: a receiver gets many deliveries, and a new TLS handshake each time is waste.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 50 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 50 }) };

/**
 * POST a webhook. Redirects are not followed (a 3xx is a failure like any non-2xx). The
 * connect timeout bounds reaching the receiver; the total timeout bounds the whole exchange.
 * Only the first KiB of the response is kept, as text safe to store and show.
 */
export function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeouts: { connectMs: number; totalMs: number },
  lookup?: LookupFunction,
): Promise<SendResult> {
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
    const req = mod.request(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      agent: agents[url.protocol as 'http:' | 'https:'],
      ...(lookup ? { lookup } : {}),
    });
    const total = setTimeout(() => {
      fail(`Webhook endpoint timed out after ${timeouts.totalMs} ms`);
      req.destroy();
    }, timeouts.totalMs);
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const connect = setTimeout(() => {
        fail(`Could not connect to the webhook endpoint within ${timeouts.connectMs} ms`);
        req.destroy();
      }, timeouts.connectMs);
      socket.once('connect', () => clearTimeout(connect));
      socket.once('secureConnect', () => clearTimeout(connect));
      socket.once('close', () => clearTimeout(connect));
    });
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      fail(code === 'ETARGETREFUSED' ? err.message : `Webhook request failed: ${code ?? err.message}`);
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
          error: ok ? null : `Webhook endpoint returned HTTP ${status}`,
          responsePreview: textSafe(Buffer.concat(chunks)),
          retryAfterSeconds: parseRetryAfter(res.headers['retry-after']),
        });
      });
    });
    req.end(body);
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
