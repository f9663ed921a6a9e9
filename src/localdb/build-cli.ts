import { buildLocaldb } from './index.js';

/** `npm run localdb:build`: build the embedded database binary now (CI does this first). */
try {
  buildLocaldb();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
