/**
 * The admin's side of the app bridge (docs/app-bridge.md): one host per framed app
 * (`iframe[data-app-bridge]`: the host page's app, each admin_ui extension of a product's or an
 * order's page). It accepts a message only from its frame's window AND the frame's embed origin
 * exactly (anything else is ignored, never answered), posts only to that origin, checks each
 * message's shape and size, and asks the admin's server before it does anything: the server
 * checks the installation, the app and the capability at that moment, so an app turned off or
 * uninstalled is refused even in a page that is open. It hands the app a session token (the
 * handshake) when its document loads and again before the token expires.
 */

const VERSION = 1;
/** A message's size as JSON, at most. */
const MAX_MESSAGE_CHARS = 8 * 1024;
/** Requests of one frame waiting for the server at once, at most; more are refused. */
const MAX_PENDING = 8;
/** Toasts shown at once, at most (the oldest goes first). */
const MAX_TOASTS = 3;
/** Renew the token this long before it expires, in seconds. */
const RENEW_BEFORE_S = 15;

type BridgeError = { code: string; message: string };
type Answer = { ok: true; result: Record<string, unknown> } | { ok: false; error: BridgeError };
type Request = { id: string | number; type: string; payload: Record<string, unknown> };

const ACTIONS = ['toast', 'resize', 'api.fetch', 'navigation.redirect'] as const;
const isAction = (type: string): type is (typeof ACTIONS)[number] => (ACTIONS as readonly string[]).includes(type);

const toasts = document.querySelector<HTMLElement>('[data-app-toasts]');

/** Show a toast: text only, in the page's live region, at most MAX_TOASTS at once, gone after its duration. */
function showToast(message: string, tone: string, durationMs: number): void {
  if (!toasts) return;
  const toast = document.createElement('p');
  toast.className = tone === 'error' ? 'app-toast app-toast--error' : 'app-toast';
  toast.textContent = message;
  toasts.append(toast);
  while (toasts.children.length > MAX_TOASTS) toasts.firstElementChild?.remove();
  setTimeout(() => toast.remove(), durationMs);
}

/** An envelope of the protocol, or null (not ours: ignored). The id is a string of 1–64 characters or a safe integer. */
function readRequest(data: unknown): Request | { id: string | number; invalid: BridgeError } | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.emporium !== 'bridge') return null;
  const id = m.id;
  if (!((typeof id === 'string' && id.length >= 1 && id.length <= 64) || Number.isSafeInteger(id))) return null;
  const request = { id: id as string | number };
  let size = Infinity;
  try {
    size = JSON.stringify(data).length;
  } catch {
    // Not JSON (a cycle, a BigInt): refused below as too large.
  }
  if (size > MAX_MESSAGE_CHARS)
    return { ...request, invalid: { code: 'message_too_large', message: `A message is at most ${MAX_MESSAGE_CHARS} characters as JSON` } };
  if (m.version !== VERSION) return { ...request, invalid: { code: 'unsupported_version', message: `This admin speaks version ${VERSION} of the bridge` } };
  if (typeof m.type !== 'string' || !isAction(m.type))
    return { ...request, invalid: { code: 'unknown_type', message: `type must be one of ${ACTIONS.join(', ')}` } };
  const payload = m.payload ?? {};
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return { ...request, invalid: { code: 'invalid_message', message: 'payload must be an object' } };
  return { ...request, type: m.type, payload: payload as Record<string, unknown> };
}

/** The payload's fields as the server's form takes them: strings and numbers only, nothing else. */
function fieldsOf(type: (typeof ACTIONS)[number], payload: Record<string, unknown>): { fields: ReadonlyMap<string, string> } | { error: BridgeError } {
  const names: Record<(typeof ACTIONS)[number], readonly string[]> = {
    toast: ['message', 'tone', 'duration'],
    resize: ['height'],
    'api.fetch': ['method', 'path'],
    'navigation.redirect': ['to'],
  };
  // A Map: the names are the app's choice (`__proto__` is no field).
  const fields = new Map<string, string>(type === 'api.fetch' ? [['method', 'GET']] : []);
  for (const [name, value] of Object.entries(payload)) {
    if (!names[type].includes(name)) return { error: { code: 'invalid_message', message: `${type} takes ${names[type].join(', ')}; not ${name}` } };
    if (typeof value !== 'string' && typeof value !== 'number') return { error: { code: 'invalid_message', message: `${name} must be a string or a number` } };
    fields.set(name, String(value));
  }
  return { fields };
}

type Host = { frame: HTMLIFrameElement; origin: string; receive(request: Request): void; refuse(id: Request['id'], error: BridgeError): void };

function host(frame: HTMLIFrameElement): Host | null {
  const { origin, endpoint, csrf, extension } = frame.dataset;
  if (!origin || !endpoint || !csrf) return null;
  const status =
    frame.previousElementSibling instanceof HTMLElement && 'appStatus' in frame.previousElementSibling.dataset ? frame.previousElementSibling : null;
  let pending = 0;
  let renewal: ReturnType<typeof setTimeout> | undefined;

  const post = (message: Record<string, unknown>) => frame.contentWindow?.postMessage({ emporium: 'bridge', version: VERSION, ...message }, origin);

  /** Ask the admin's server (same origin, the session cookie, the page's CSRF token). */
  async function ask(type: string, fields: ReadonlyMap<string, string>): Promise<Answer> {
    const body = new URLSearchParams([['csrf_token', csrf!], ['type', type], ...fields, ...(extension ? [['extension', extension]] : [])]);
    try {
      const response = await fetch(endpoint!, {
        method: 'POST',
        body,
        credentials: 'same-origin',
        redirect: 'manual',
        headers: { Accept: 'application/json' },
      });
      if (response.type === 'opaqueredirect')
        return { ok: false, error: { code: 'session_ended', message: 'The merchant is no longer signed in to the admin' } };
      if (!(response.headers.get('Content-Type') ?? '').startsWith('application/json'))
        return { ok: false, error: { code: 'host_refused', message: `The admin refused the request (HTTP ${response.status})` } };
      return (await response.json()) as Answer;
    } catch {
      return { ok: false, error: { code: 'host_unavailable', message: 'The admin could not reach its server' } };
    }
  }

  /** The handshake: a fresh session token, the store, the locale, the capabilities; renewed before the token expires. */
  async function handshake(): Promise<void> {
    clearTimeout(renewal);
    const answer = await ask('handshake', new Map());
    if (!answer.ok) {
      if (status) status.textContent = `This app is not available: ${answer.error.message}.`;
      return;
    }
    if (status) status.textContent = '';
    post({ type: 'handshake', payload: answer.result });
    const expiresIn = Number(answer.result.expires_in);
    renewal = setTimeout(() => void handshake(), Math.max(5, expiresIn - RENEW_BEFORE_S) * 1000);
  }

  async function act(request: Request & { type: (typeof ACTIONS)[number] }): Promise<void> {
    const read = fieldsOf(request.type, request.payload);
    const answer: Answer = 'error' in read ? { ok: false, error: read.error } : await ask(request.type, read.fields);
    post({ type: 'result', id: request.id, ...answer });
    if (!answer.ok) return;
    const result = answer.result;
    if (request.type === 'toast') showToast(String(result.message), String(result.tone), Number(result.duration));
    if (request.type === 'resize') frame.style.height = `${Number(result.height)}px`;
    if (request.type === 'navigation.redirect') {
      if (result.target === 'admin') window.location.assign(String(result.url));
      else if (result.target === 'app') frame.src = String(result.url);
    }
  }

  // Each document the frame loads (the first, an app's own navigation) gets a handshake; and now, in
  // case the frame loaded before this script ran (a frame still loading drops it: its blank
  // document is not of the embed origin).
  frame.addEventListener('load', () => void handshake());
  void handshake();
  const refuse = (id: Request['id'], error: BridgeError) => post({ type: 'result', id, ok: false, error });
  return {
    frame,
    origin,
    refuse,
    receive(request) {
      if (pending >= MAX_PENDING) return refuse(request.id, { code: 'too_many_requests', message: `At most ${MAX_PENDING} requests wait at once` });
      pending += 1;
      void act(request as Request & { type: (typeof ACTIONS)[number] }).finally(() => (pending -= 1));
    },
  };
}

const hosts = [...document.querySelectorAll<HTMLIFrameElement>('iframe[data-app-bridge]')].flatMap((frame) => host(frame) ?? []);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  // Only the frame's own window, and only from its embed origin: anything else is ignored, not answered.
  const target = hosts.find((h) => h.frame.contentWindow !== null && h.frame.contentWindow === event.source);
  if (!target || event.origin !== target.origin) return;
  const request = readRequest(event.data);
  if (!request) return;
  if ('invalid' in request) {
    target.refuse(request.id, request.invalid);
    return;
  }
  target.receive(request);
});
