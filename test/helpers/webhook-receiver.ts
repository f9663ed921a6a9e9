import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Verify a webhook exactly as docs/webhooks.md tells partners to: HMAC-SHA256 (hex) with the
 * signing secret over `<X-Platform-Timestamp>.<raw body>`, against each `v1=` signature in
 * the header (one, or two during a secret rotation), compared in constant time.
 */
export function verifyWebhook(secret: string, headers: IncomingHttpHeaders, rawBody: string, header = 'x-platform-hmac-sha256'): boolean {
  const timestamp = headers['x-platform-timestamp'];
  const signatures = headers[header];
  if (typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return signatures.split(',').some((part) => {
    const hex = part.trim().replace(/^v1=/, '');
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; eventId: string };
type Behaviour = (attempt: number, req: { path: string }) => { status?: number; headers?: Record<string, string>; hang?: boolean; reset?: boolean };

/** A partner's endpoint: records every request, and counts each event once per path (dedupe by event id). */
export class WebhookReceiver {
  readonly requests: Received[] = [];
  readonly processed = new Map<string, Set<string>>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly attempts = new Map<string, number>();
  private readonly hanging = new Set<() => void>();
  private server!: Server;
  url = '';

  on(path: string, behaviour: Behaviour): this {
    this.behaviours.set(path, behaviour);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const eventId = String(req.headers['x-platform-event-id'] ?? '');
        this.requests.push({ path, headers: req.headers, body, eventId });
        const attempt = this.attempts.get(path) ?? 0;
        this.attempts.set(path, attempt + 1);
        const b = this.behaviours.get(path)?.(attempt, { path }) ?? {};
        if (b.reset) {
          req.socket.destroy();
          return;
        }
        if (b.hang) {
          const release = () => res.destroy();
          this.hanging.add(release);
          return;
        }
        const status = b.status ?? 200;
        if (status >= 200 && status < 300) {
          if (!this.processed.has(path)) this.processed.set(path, new Set());
          this.processed.get(path)!.add(eventId);
        }
        res.writeHead(status, b.headers ?? {}).end(status >= 300 ? 'nope: try later' : 'ok');
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  to(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
