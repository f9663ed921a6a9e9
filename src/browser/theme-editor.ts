/**
 * The theme editor's live preview (docs/admin.md, The theme editor): as the merchant types in the
 * settings form, 500 ms after the last change the form is posted to its own address (the same
 * form post as Save, with its CSRF token) and the preview frame reloads to show the draft. Each
 * pause in typing costs one draft write and one render of the preview. Without JavaScript the
 * form saves on Save and the page (with its preview) comes back.
 *
 * The post is sent with `redirect: 'manual'`: the editor answers a saved form with a redirect (an
 * opaque answer here) and a refused one with the page again (400, 409), whose errors are copied
 * to the fields. A save moves the draft's version on by one, which the forms of the page carry.
 */
const DEBOUNCE_MS = 500;

const form = document.querySelector<HTMLFormElement>('#settings-form');
const frame = document.querySelector<HTMLIFrameElement>('#preview');
const status = form?.querySelector<HTMLElement>('.save-state') ?? null;

let timer: ReturnType<typeof setTimeout> | undefined;
let saving: Promise<void> = Promise.resolve();

function say(text: string): void {
  if (status) status.textContent = text;
}

/** The draft's version moved on: every form of the page that saves the same draft carries the new one. */
function bumpVersion(key: string): void {
  for (const input of document.querySelectorAll<HTMLInputElement>(`input[name="version"][data-draft-key="${CSS.escape(key)}"]`)) {
    input.value = String(Number(input.value) + 1);
  }
}

function reloadPreview(): void {
  if (!frame) return;
  const url = new URL(frame.src, location.href);
  url.searchParams.set('r', String(Date.now()));
  frame.src = url.toString();
}

/** The refused form's errors at the page's fields (the answer is the editor again, with the form as sent). */
function showErrors(page: string): void {
  if (!form) return;
  const answer = new DOMParser().parseFromString(page, 'text/html').querySelector<HTMLFormElement>('#settings-form');
  for (const field of form.querySelectorAll<HTMLElement>('.field')) {
    const name = field.querySelector<HTMLInputElement>('[name]')?.name;
    const sent = name ? answer?.querySelector(`[name="${CSS.escape(name)}"]`)?.closest('.field') : null;
    const message = sent?.querySelector('.field__error')?.textContent ?? '';
    let error = field.querySelector<HTMLElement>('.field__error');
    if (message && !error) {
      error = document.createElement('span');
      error.className = 'field__error';
      field.append(error);
    }
    if (error) error.textContent = message;
    const input = field.querySelector('[name]');
    if (message) input?.setAttribute('aria-invalid', 'true');
    else input?.removeAttribute('aria-invalid');
  }
}

async function save(): Promise<void> {
  if (!form) return;
  const version = form.querySelector<HTMLInputElement>('input[name="version"]');
  const body = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') body.append(name, value);
  say('Saving…');
  try {
    const response = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin', redirect: 'manual' });
    if (response.type === 'opaqueredirect') {
      if (version?.dataset.draftKey) bumpVersion(version.dataset.draftKey);
      showErrors('');
      say('Draft saved');
      reloadPreview();
    } else if (response.status === 409) {
      say('The draft changed in another tab: reload the page to edit it as it is now');
    } else {
      showErrors(await response.text());
      say('Not saved: see the fields');
    }
  } catch {
    say('Not saved: the connection failed');
  }
}

form?.addEventListener('input', () => {
  clearTimeout(timer);
  // One save at a time, in order: each starts from the version the one before it made.
  timer = setTimeout(() => (saving = saving.then(save)), DEBOUNCE_MS);
});
