import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { verifyBySpec } from './spec-verifier.js';

export type Received = {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body bytes as received (what a signature is checked against). */
  raw: Buffer;
  body: string;
  eventId: string;
  /** Whether both signature headers verified (spec 6.1) with the secret the path expects. */
  verified: boolean;
};
type Behaviour = (attempt: number, req: { path: string }) => { status?: number; headers?: Record<string, string>; hang?: boolean; reset?: boolean };

/**
 * A partner's endpoint: verifies every request as spec 6.1 says (test/helpers/spec-verifier.ts)
 * with the signing secret its path expects, answers 401 to any that does not verify (or to a
 * path nobody told it a secret for), records every request, and counts each event once per
 * path (dedupe by event id). A test that expects a delivery to succeed thus also proves that a
 * receiver written from the spec alone accepted it.
 */
export class WebhookReceiver {
  readonly requests: Received[] = [];
  readonly processed = new Map<string, Set<string>>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly secrets = new Map<string, string>();
  private readonly attempts = new Map<string, number>();
  private readonly hanging = new Set<() => void>();
  private server!: Server;
  url = '';

  on(path: string, behaviour: Behaviour): this {
    this.behaviours.set(path, behaviour);
    return this;
  }

  /** The secret the partner at `path` verifies with (the subscription's, or the new one after a rotation). */
  expectSecret(path: string, secret: string): this {
    this.secrets.set(path, secret);
    return this;
  }

  /** Listens on a free loopback port: HTTPS with `tls` (a certificate the sender trusts), HTTP without. */
  async start(tls?: { key: string; cert: string }): Promise<this> {
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const raw = Buffer.concat(chunks);
        const eventId = String(req.headers['x-platform-event-id'] ?? '');
        const secret = this.secrets.get(path);
        const verified =
          secret !== undefined &&
          verifyBySpec(secret, req.headers, raw, 'x-platform-hmac-sha256') &&
          verifyBySpec(secret, req.headers, raw, 'x-platform-signature');
        this.requests.push({ path, headers: req.headers, raw, body: raw.toString('utf8'), eventId, verified });
        if (!verified) {
          res.writeHead(401).end('signature does not verify');
          return;
        }
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
    };
    this.server = tls ? createTlsServer(tls, handle) : createServer(handle);
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `${tls ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
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
