import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';

/**
 * The SMTP server the platform's email goes out through (`SMTP_URL`, docs/mail.md), as the
 * transport reads it. `secure`: TLS from the first byte (smtps://); otherwise `starttls` says
 * whether the connection must upgrade (`required`), upgrades when the server offers it
 * (`opportunistic`, the default), or stays plain (`off`, a catcher on this machine).
 */
export type SmtpConfig = {
  host: string;
  port: number;
  secure: boolean;
  starttls: 'required' | 'opportunistic' | 'off';
  auth: { user: string; pass: string } | null;
  /** `smtp://host:port`, without credentials: what banners and logs print. */
  display: string;
};

const STARTTLS = ['required', 'opportunistic', 'off'] as const;

/** `smtp://user:pass@host:587?starttls=required`, `smtps://user:pass@host` (465), `smtp://127.0.0.1:1025?starttls=off`. */
export const SmtpUrl = z.string().transform((raw, ctx): SmtpConfig => {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('must be a URL such as smtp://user:password@smtp.example.com:587 or smtps://…');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return fail('must start with smtp:// (STARTTLS) or smtps:// (TLS)');
  if (!url.hostname) return fail('names no host');
  const params = [...url.searchParams.keys()];
  const unknown = params.filter((p) => p !== 'starttls');
  if (unknown.length > 0) return fail(`unknown parameter ${unknown.join(', ')} (only starttls=required|opportunistic|off)`);
  const starttls = url.searchParams.get('starttls') ?? 'opportunistic';
  if (!(STARTTLS as readonly string[]).includes(starttls)) return fail('starttls must be required, opportunistic or off');
  if (url.protocol === 'smtps:' && url.searchParams.has('starttls')) return fail('starttls applies to smtp:// only (smtps:// is TLS from the start)');
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    secure,
    starttls: starttls as SmtpConfig['starttls'],
    auth: user ? { user, pass: decodeURIComponent(url.password) } : null,
    display: `${url.protocol}//${url.hostname}:${port}`,
  };
});

/** The platform's sender (`MAIL_FROM`): `Emporium <no-reply@example.com>` or a bare address. */
export const MailFrom = z.string().transform((raw, ctx): { name: string; address: string } => {
  const parsed = addressparser(raw, { flatten: true });
  const first = parsed[0];
  if (parsed.length !== 1 || !first?.address || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(first.address)) {
    ctx.addIssue({ code: 'custom', message: 'must be one address, such as "Emporium <no-reply@example.com>"' });
    return z.NEVER;
  }
  return { name: first.name, address: first.address };
});

/** An SMTP server on this machine: plain text does not leave it. */
export const isLoopbackHost = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** Where the platform's email goes (docs/mail.md): SMTP when SMTP_URL is set, else the HTTP relay, else the development outbox. */
export function mailTransport(config: { mail: { smtp: SmtpConfig | null }; messageRelay: unknown }): 'smtp' | 'relay' | 'outbox' {
  if (config.mail.smtp) return 'smtp';
  return config.messageRelay ? 'relay' : 'outbox';
}
