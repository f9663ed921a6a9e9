import { escapeHtml, safeHref } from '../../html.js';
import { sanitizeMerchantHtml } from '../../merchant-html.js';
import { ownValue } from '../../own-keys.js';
import type { SettingField } from '../../themes/index.js';
import { renderAppBlock } from '../app-blocks.js';
import type { RenderedBlock, RenderedSection } from '../sections.js';
import { csrfField, heading, modifier, text, type JsonContractEnv } from './parts.js';

/** The blocks of a section, each in its block wrapper, rendered by `render` (app blocks by the platform). */
export const blocks = (section: RenderedSection, env: JsonContractEnv, render: (b: RenderedBlock) => string = (b) => genericBlock(b, env)) =>
  section.blocks.map((b) => blockHtml(b, env, render)).join('');

function fieldTypes(schema: readonly SettingField[]): Map<string, SettingField['type']> {
  return new Map(schema.map((f) => [f.id, f.type]));
}

/**
 * Any block without a built-in template: a `heading` setting as a heading, richtext settings as
 * sanitised HTML, other text as escaped paragraphs, a `label` with a `link` as a button, an image
 * asset as an image; an `email-form` block as the newsletter's form.
 */
export function genericBlock(block: RenderedBlock, env: JsonContractEnv): string {
  const types = fieldTypes(ownValue(env.bundle.blocks, block.type)?.settings_schema ?? []);
  const s = block.settings;
  if (block.type === 'email-form') return emailForm(env, block);
  const parts: string[] = [];
  if (typeof s.heading === 'string' && s.heading) {
    const size = modifier(s.size);
    parts.push(heading(s.heading, `block__heading${size ? ` block__heading--${size}` : ''}`));
  }
  for (const [id, type] of types) {
    const value = ownValue(s, id);
    if (typeof value !== 'string' || id === 'heading' || id === 'label' || id === 'link') continue;
    if (type === 'richtext') parts.push(`<div class="block__text rte">${sanitizeMerchantHtml(value)}</div>`);
    else if (type === 'text' || type === 'textarea') parts.push(`<p class="block__text">${escapeHtml(value)}</p>`);
    else if (type === 'image' && value.startsWith('assets/'))
      parts.push(`<img class="block__image" src="${escapeHtml(env.assetUrl(value))}" alt="" loading="lazy">`);
  }
  const href = safeHref(s.link);
  if (typeof s.label === 'string' && s.label) {
    const cls = `button button--${modifier(s.style) ?? 'primary'} block__button`;
    parts.push(href ? `<a class="${cls}" href="${escapeHtml(href)}">${escapeHtml(s.label)}</a>` : `<span class="${cls}">${escapeHtml(s.label)}</span>`);
  }
  return parts.join('');
}

/**
 * The newsletter's email form: Shopify's customer form, posted to the shop's `/contact`
 * (docs/shop.md, Newsletter), which records the email's consent and answers back to this page
 * at `#<form id>`: the thanks below the form shows then (`:target`, no script).
 */
function emailForm(env: JsonContractEnv, block: RenderedBlock): string {
  const id = `email-${escapeHtml(block.id)}`;
  const label =
    typeof block.settings.button_label === 'string' && block.settings.button_label
      ? escapeHtml(block.settings.button_label)
      : text(env, 'newsletter.subscribe', 'Subscribe');
  return (
    `<form class="email-form" method="post" action="/contact">${csrfField(env)}<input type="hidden" name="form_type" value="customer"><input type="hidden" name="contact[tags]" value="newsletter"><input type="hidden" name="form_id" value="${id}-thanks">` +
    `<label class="email-form__label visually-hidden" for="${id}">${text(env, 'newsletter.email', 'Email address')}</label>` +
    `<input class="email-form__input" id="${id}" type="email" name="contact[email]" autocomplete="email" placeholder="${text(env, 'newsletter.placeholder', 'you@example.com')}" required>` +
    `<button class="button button--primary email-form__button" type="submit">${label}</button></form>` +
    `<p class="email-form__thanks" id="${id}-thanks" role="status">${text(env, 'newsletter.thanks', 'Thanks for subscribing.')}</p>`
  );
}

function blockHtml(block: RenderedBlock, env: JsonContractEnv, render: (b: RenderedBlock) => string): string {
  if (block.app) return renderAppBlock(block);
  return `<div class="block block--${escapeHtml(block.type)}" data-block-id="${escapeHtml(block.id)}"${dataAttributes(block.settings)}>${render(block)}</div>`;
}

export function dataAttributes(settings: Record<string, unknown>): string {
  return Object.entries(settings)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .map(([k, v]) => ` data-setting-${escapeHtml(k.replace(/_/g, '-'))}="${escapeHtml(v)}"`)
    .join('');
}
