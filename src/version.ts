import { readFileSync } from 'node:fs';

/** The platform version, from package.json (this file runs from dist/src/). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
