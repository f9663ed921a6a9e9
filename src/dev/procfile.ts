import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ProcfileEntry = { name: string; command: string };

/** The Procfile's process types, in order. */
export function readProcfile(root: string): ProcfileEntry[] {
  return readFileSync(join(root, 'Procfile'), 'utf8')
    .split('\n')
    .map((line) => /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[1]!, command: m[2]! }));
}
