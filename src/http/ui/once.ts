import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError } from '../../errors.js';
import type { Markup } from '../../html.js';
import type { Platform } from '../../platform.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../idempotency/service.js';
import { hiddenInput, type FormState } from './forms.js';

/**
 * A form that must act once however often it is sent (docs/pages.md, "Once per form"): a
 * double-clicked Install installs one theme, a reloaded Issue issues one gift card. The form
 * carries a key of its own (`formKeyInput`, kept when the form is shown again) and its post runs
 * through `actOnce`, on the API's idempotency records (`src/http/idempotency`): the first post
 * runs and its result is kept 24 hours; a post with the same key and fields gets that result
 * again and does nothing. A second post that arrives while the first still runs (a double
 * click) waits for it, up to WAIT_MS, and answers with its result, so the browser, which shows
 * the answer to the last post, lands where the first one went.
 */

/** The hidden `form_key` of a form that acts once: a new key, or the one the form was sent with. */
export const formKeyInput = (form?: FormState): Markup => hiddenInput('form_key', form?.values.get('form_key') ?? randomUUID());

const WAIT_MS = 15_000;
const POLL_MS = 100;

export type OnceScope = {
  /** Who sends it (the merchant) and where (the store): another merchant's same key is another form. */
  caller: string;
  /** What the form does (`theme-install:<slug>`). */
  action: string;
  /** The post's `form_key`; without one (a client that sent none) the form simply acts. */
  key: string | undefined;
  /** What it acts on (the fields that matter): the same key with other fields is refused. */
  input: unknown;
};

/** Run `act` once for the form's key, or answer what its first run answered. The result is stored as JSON: keep it to what the page needs (ids, names). */
export async function actOnce<T>(platform: Platform, scope: OnceScope, act: () => Promise<T>): Promise<T> {
  if (!scope.key) return act();
  if (scope.key.length > 255)
    throw new PlatformError('invalid_data', 'invalid_idempotency_key', 'The form key is too long: reload the page and send the form again');
  const { lockMs } = platform.config.idempotency;
  const idempotency = { caller: `form|${scope.caller}`, route: scope.action, key: scope.key, body: scope.input };
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const claim = await claimIdempotencyKey(platform, idempotency, { lockMs });
      if (claim.kind === 'replay') return claim.body as T;
      let result: T;
      try {
        result = await act();
      } catch (err) {
        await releaseIdempotencyKey(platform, claim);
        throw err;
      }
      await completeIdempotencyKey(platform, claim, 200, result);
      return result;
    } catch (err) {
      const running = err instanceof PlatformError && err.code === 'idempotency_request_in_progress';
      if (!running || Date.now() >= deadline) throw err;
      await sleep(POLL_MS);
    }
  }
}
