import type { Platform } from '../../src/platform.js';
import { sweep } from './sweeps.js';

/**
 * A process that stops right after the write that carries its events (docs/events.md, "Every
 * committed change, once"): `settle` records nothing, and a delete stops after removing the
 * document (before recording). Until `restore`, the events stay where the write left them.
 */
export function stopAfterWrites(platform: Platform): { restore(): void } {
  const events = platform.events;
  const { settle, deleting } = events;
  events.settle = async () => {};
  events.deleting = (collection, id, pending, remove) =>
    deleting.call(events, collection, id, pending, async () => {
      await remove();
      throw new Error('injected fault: the process stopped after the delete');
    });
  return {
    restore() {
      events.settle = settle;
      events.deleting = deleting;
    },
  };
}

/** The maintenance sweep that records left-behind events, run as the worker runs it, `aheadMs` from now. */
export async function settleLeftBehind(platform: Platform, aheadMs = 5 * 60_000): Promise<number> {
  const later: Platform = { ...platform, clock: { now: () => new Date(Date.now() + aheadMs) } };
  return sweep('maintenance.settle-events', later);
}
