import { badge, type Tone } from '../../http/ui/parts.js';

const TONES: Record<string, Tone> = { active: 'ok', draft: 'warn', archived: 'neutral' };

/** A product's status as a badge: active green, draft amber, archived grey. */
export const statusBadge = (status: 'active' | 'draft' | 'archived') => badge(status, TONES[status]);
