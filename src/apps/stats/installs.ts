import type { ObjectId } from 'mongodb';
import { dayOf } from '../../clock.js';
import type { Platform } from '../../platform.js';
import { installations } from '../installations/models.js';
import { apps } from '../partners/models.js';
import { installDays } from './models.js';

/**
 * Install figures kept as counters, so the partner dashboard reads a few small documents
 * whatever the number of installations (docs/apps.md, Partner dashboard; bench:dashboard):
 * - on the app: `install_counts` { active, uninstalled }, now;
 * - per app and UTC day (APP_INSTALL_DAYS, `_id` `<app id>:<day>`): installs and uninstalls.
 *
 * Each change is counted right after the installation's write that made it took (conditional
 * on the version read: so once). A process that stops between the two loses that one count:
 * `recountInstalls` rebuilds the counts now from the installations (one pass over them, the
 * cost the counters avoid on every dashboard read); a lost daily count stays lost.
 */
export type InstallChange = 'installed' | 'reinstalled' | 'uninstalled';

/** Count one change of an installation of the app (two small writes). */
export async function countInstallChange(platform: Platform, appId: ObjectId, change: InstallChange): Promise<void> {
  const now = platform.clock.now();
  const day = dayOf(now);
  const counts =
    change === 'installed'
      ? { 'install_counts.active': 1 }
      : change === 'reinstalled'
        ? { 'install_counts.active': 1, 'install_counts.uninstalled': -1 }
        : { 'install_counts.active': -1, 'install_counts.uninstalled': 1 };
  await apps(platform.db).updateOne({ _id: appId }, { $inc: counts });
  const field = change === 'uninstalled' ? 'uninstalled' : 'installed';
  await installDays(platform.db)
    .updateOne(
      { _id: `${appId.toHexString()}:${day}` },
      { $inc: { [field]: 1, [field === 'installed' ? 'uninstalled' : 'installed']: 0 }, $setOnInsert: { app_id: appId, day } },
      { upsert: true },
    )
    .catch(async (err: { code?: number }) => {
      // Two first counts of the day at once: the loser finds the document now.
      if (err.code !== 11000) throw err;
      await installDays(platform.db).updateOne({ _id: `${appId.toHexString()}:${day}` }, { $inc: { [field]: 1 } });
    });
}

/** The app's counts now, from its installations (one pass over them); written to the app when `write`. */
export async function recountInstalls(platform: Platform, appId: ObjectId, write = true): Promise<{ active: number; uninstalled: number }> {
  const [active, uninstalled] = await Promise.all(
    (['active', 'uninstalled'] as const).map((status) => installations(platform.db).countDocuments({ app_id: appId, status })),
  );
  const counts = { active: active!, uninstalled: uninstalled! };
  if (write) await apps(platform.db).updateOne({ _id: appId }, { $set: { install_counts: counts } });
  return counts;
}
