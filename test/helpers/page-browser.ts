/** A browser in miniature: a cookie jar over fetch, redirects not followed, `Sec-Fetch-Site` as a browser sends it for same-origin forms. */
export class Browser {
  readonly jar = new Map<string, string>();
  readonly setCookies: string[] = [];
  constructor(readonly base: string) {}

  async request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['sec-fetch-site'] ??= 'same-origin';
    }
    const res = await fetch(new URL(path, this.base), {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value.join('=') === '') this.jar.delete(name!);
      else this.jar.set(name!, value.join('='));
    }
    const html = await res.text();
    return { status: res.status, headers: res.headers, html, location: res.headers.get('location') };
  }
  get = (path: string, headers?: Record<string, string>) => this.request(path, { headers });
  post = (path: string, form: Record<string, string>, headers?: Record<string, string>) => this.request(path, { form, headers });
}

/** The `csrf_token` of a page's form (the one posting to `action`, else the first). */
export const csrfOf = (html: string, action?: string) => {
  const form = action ? html.slice(html.indexOf(`action="${action}"`)) : html;
  return /name="csrf_token" value="([^"]+)"/.exec(form)?.[1] ?? '';
};
