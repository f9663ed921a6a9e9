import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../html.js';

/** A section (or the layout) that did not render: its comment is in the page, this is for the log. */
export type SectionFailure = { errorId: string; message: string };

export const newErrorId = () => randomBytes(6).toString('hex');

/** The comment a failed section (or layout) leaves in the page: its error id, never the message. */
export function failureComment(section: string, errorId: string): string {
  return `<!-- section "${section.replace(/[^A-Za-z0-9_-]/g, '')}" failed to render (error ${errorId}) -->`;
}

/** The sections alone in a plain page, when the layout failed or could not run. */
export function barePage(locale: string, storeName: string, layoutFailure: string, content: string): string {
  return `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><title>${escapeHtml(storeName)}</title></head><body>${layoutFailure}\n${content}</body></html>`;
}
