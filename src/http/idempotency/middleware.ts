import type { Middleware } from 'koa';
import { PlatformError } from '../../errors.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, renewIdempotencyClaim, type HeldClaim } from './service.js';
import type { Platform } from '../../platform.js';
import { principalKey, type AppContext, type AppCustom, type AppState } from '../context.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` support for a write route (after authentication): a retry with the same
 * key and body, by the same caller, gets the first response again (with `Idempotent-Replayed:
 * true`) and changes nothing. Only successful responses are kept; a failed request frees its key.
 *
 * The claim on the key lasts `config.idempotency.lockMs` (60 s) and is renewed every third of
 * that while the request runs, so a slow request keeps its key however long it takes; a claim
 * nobody renews (its process died or stalled past the lease) is taken over by a retry, and the
 * old holder's completion or release, made with its own token, then changes nothing.
 */
export function idempotent(platform: Platform, publicScope: ((ctx: AppContext) => string | null) | null = null): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (!key) return next();
    if (!KEY.test(key)) {
      throw new PlatformError('invalid_data', 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    // Scoped to the caller's credential (the principal; on a public route, what its scope derives
    // from the credential the request presents) and, on store-scoped routes, the store: the same
    // key under another X-Store-Id is another request. Never the client's address: another
    // client behind it would get the answer. A request with no credential is not replayed.
    const principal = ctx.state.principal;
    const credential = principal ? principalKey(principal) : (publicScope?.(ctx) ?? null);
    if (credential === null) return next();
    const caller = `${credential}|${ctx.state.store?.id ?? '-'}`;
    const route = `${ctx.method} ${ctx.path}`;
    const { lockMs } = platform.config.idempotency;
    const claim = await claimIdempotencyKey(platform, { caller, route, key, body: ctx.request.body }, { lockMs });
    if (claim.kind === 'replay') {
      ctx.status = claim.status;
      ctx.body = claim.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    const lost = (step: string) =>
      platform.log.warn(
        { event: 'idempotency.claim_lost', request_id: ctx.state.requestId, route, idempotency_key: key, step },
        'the Idempotency-Key claim was taken over while the request ran',
      );
    const heartbeat = keepAlive(platform, claim, lockMs, () => lost('renew'));
    try {
      await next();
    } catch (err) {
      await heartbeat.stop();
      // The request's own error is what the client hears about; a release that fails leaves
      // the claim to run out (and be taken over) instead.
      const released = await releaseIdempotencyKey(platform, claim).catch((releaseErr: unknown) => {
        platform.log.error({ event: 'idempotency.release_failed', request_id: ctx.state.requestId, route, err: (releaseErr as Error).message });
        return true;
      });
      if (!released && !heartbeat.lost) lost('release');
      throw err;
    }
    await heartbeat.stop();
    const ok = ctx.status >= 200 && ctx.status < 300;
    const kept = ok ? await completeIdempotencyKey(platform, claim, ctx.status, ctx.body) : await releaseIdempotencyKey(platform, claim);
    // The work is done and its client gets its answer; the key belongs to the request that took it over.
    if (!kept && !heartbeat.lost) lost(ok ? 'complete' : 'release');
  };
}

/**
 * Renew the claim every third of its lease until stopped. A renewal that finds the claim gone
 * (taken over after a stall longer than the lease) stops renewing and reports it once; one
 * that fails (the database did not answer) is tried again at the next beat.
 */
function keepAlive(platform: Platform, claim: HeldClaim, lockMs: number, onLost: () => void) {
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  const state = { lost: false, stopped: false };
  const beat = async () => {
    const stillHeld = await renewIdempotencyClaim(platform, claim, { lockMs }).catch((err: unknown) => {
      platform.log.warn({ event: 'idempotency.renew_failed', err: (err as Error).message });
      return true;
    });
    if (!stillHeld && !state.stopped) {
      state.lost = true;
      onLost();
    }
  };
  const schedule = () => {
    timer = setTimeout(
      () => {
        inFlight = beat().then(() => {
          if (!state.stopped && !state.lost) schedule();
        });
      },
      Math.floor(lockMs / 3),
    );
    timer.unref();
  };
  schedule();
  return {
    get lost() {
      return state.lost;
    },
    /** Stop renewing, and wait for a renewal under way (so it cannot land after the completion). */
    async stop() {
      state.stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
