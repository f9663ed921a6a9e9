/**
 * The notifications a store sends and their default templates (docs/notifications.md): Liquid
 * kept as TypeScript strings, since the build copies no `.liquid` file. A store's edited
 * template (models.ts) takes the place of its default; DELETE goes back to this one. The HTML
 * template is the message's content: the layout around it (layout.ts) adds the store's name,
 * logo and colours, so an edit cannot lose them.
 */
export const NOTIFICATION_KINDS = [
  'order_confirmation',
  'shipping_confirmation',
  'order_refund',
  'order_cancelled',
  'merchant_new_order',
  'account_activation',
  'account_invite',
  'password_reset',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type NotificationTemplate = { subject: string; text: string; html: string };
export type NotificationInfo = { title: string; audience: 'customer' | 'merchant'; when: string; sample: 'order' | 'account' };

export const NOTIFICATION_INFO: ReadonlyMap<NotificationKind, NotificationInfo> = new Map([
  ['order_confirmation', { title: 'Order confirmation', audience: 'customer', when: 'An order is placed', sample: 'order' }],
  ['shipping_confirmation', { title: 'Shipping confirmation', audience: 'customer', when: 'An order’s items are fulfilled', sample: 'order' }],
  ['order_refund', { title: 'Refund', audience: 'customer', when: 'An order is refunded', sample: 'order' }],
  ['order_cancelled', { title: 'Order cancelled', audience: 'customer', when: 'An order is cancelled', sample: 'order' }],
  ['merchant_new_order', { title: 'New order', audience: 'merchant', when: 'An order is placed (to you)', sample: 'order' }],
  ['account_activation', { title: 'Account activation', audience: 'customer', when: 'A known customer signs up', sample: 'account' }],
  ['account_invite', { title: 'Account invite', audience: 'customer', when: 'You invite a customer', sample: 'account' }],
  ['password_reset', { title: 'Password reset', audience: 'customer', when: 'A customer asks to reset a password', sample: 'account' }],
] as const);

/** The order's lines, totals and address, in text. */
const TEXT_SUMMARY = `{% for line in order.line_items %}{{ line.quantity }} × {{ line.title }}{% if line.variant_title %} ({{ line.variant_title }}){% endif %}  {{ line.line_price | money }}
{% endfor %}
Subtotal  {{ order.subtotal_price | money }}
{% if order.total_discounts > 0 %}Discounts  -{{ order.total_discounts | money }}{% if order.discount_code %} ({{ order.discount_code }}){% endif %}
{% endif %}Shipping  {{ order.shipping_price | money }}
Taxes  {{ order.tax_price | money }}
Total  {{ order.total_price | money }}
{% if order.shipping_address %}
Shipping to:
{% for line in order.shipping_address.lines %}{{ line }}
{% endfor %}{% endif %}`;

/** The order's lines, totals and address, as HTML tables with inline styles. */
const HTML_SUMMARY = `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:16px 0">
{% for line in order.line_items %}<tr>
<td style="padding:8px 0;border-bottom:1px solid #e5e7eb">{{ line.title }}{% if line.variant_title %}<br><span style="color:#6b7280;font-size:13px">{{ line.variant_title }}</span>{% endif %} × {{ line.quantity }}</td>
<td align="right" style="padding:8px 0;border-bottom:1px solid #e5e7eb;white-space:nowrap">{{ line.line_price | money }}</td>
</tr>{% endfor %}
<tr><td style="padding:4px 0">Subtotal</td><td align="right" style="padding:4px 0">{{ order.subtotal_price | money }}</td></tr>
{% if order.total_discounts > 0 %}<tr><td style="padding:4px 0">Discounts{% if order.discount_code %} ({{ order.discount_code }}){% endif %}</td><td align="right" style="padding:4px 0">-{{ order.total_discounts | money }}</td></tr>{% endif %}
<tr><td style="padding:4px 0">Shipping</td><td align="right" style="padding:4px 0">{{ order.shipping_price | money }}</td></tr>
<tr><td style="padding:4px 0">Taxes</td><td align="right" style="padding:4px 0">{{ order.tax_price | money }}</td></tr>
<tr><td style="padding:8px 0;font-weight:bold;font-size:17px">Total</td><td align="right" style="padding:8px 0;font-weight:bold;font-size:17px">{{ order.total_price | money }}</td></tr>
</table>
{% if order.shipping_address %}<h3 style="font-size:15px;margin:16px 0 4px">Shipping address</h3>
<p style="margin:0;line-height:1.5">{% for line in order.shipping_address.lines %}{{ line }}<br>{% endfor %}</p>{% endif %}`;

const button = (href: string, label: string) =>
  `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:{{ colors.accent }};color:{{ colors.accent_text }};padding:12px 20px;border-radius:4px;text-decoration:none;font-weight:bold">${label}</a></p>`;

const TEXT_FOOTER = `
{% if shop.email %}Questions? Write to {{ shop.email }}.{% endif %}
{{ shop.name }}`;

const HTML_FOOTER = `{% if shop.email %}<p style="color:#6b7280;font-size:13px">Questions? Write to <a href="mailto:{{ shop.email }}" style="color:{{ colors.accent }}">{{ shop.email }}</a>.</p>{% endif %}`;

const orderTemplate = (subject: string, lead: string, htmlLead: string, extra = '', htmlExtra = ''): NotificationTemplate => ({
  subject,
  text: `${lead}
${extra}
Order {{ order.name }}
${TEXT_SUMMARY}
View your order: {{ order.order_status_url }}
${TEXT_FOOTER}`,
  html: `<h1 style="font-size:22px;margin:0 0 8px">${htmlLead}</h1>
<p style="margin:0 0 8px;color:#6b7280">Order {{ order.name }}</p>
${htmlExtra}${button('{{ order.order_status_url }}', 'View your order')}
${HTML_SUMMARY}
${HTML_FOOTER}`,
});

const TRACKING_TEXT = `{% if fulfillment.tracking_number %}
{% if fulfillment.tracking_company %}{{ fulfillment.tracking_company }} tracking number{% else %}Tracking number{% endif %}: {{ fulfillment.tracking_number }}
{% if fulfillment.tracking_url %}Track your shipment: {{ fulfillment.tracking_url }}
{% endif %}{% endif %}
Items in this shipment:
{% for line in fulfillment.line_items %}{{ line.quantity }} × {{ line.title }}
{% endfor %}`;

const TRACKING_HTML = `{% if fulfillment.tracking_number %}<p style="margin:16px 0 0">{% if fulfillment.tracking_company %}{{ fulfillment.tracking_company }} tracking number{% else %}Tracking number{% endif %}: <strong>{{ fulfillment.tracking_number }}</strong></p>
{% if fulfillment.tracking_url %}${button('{{ fulfillment.tracking_url }}', 'Track your shipment')}{% endif %}{% endif %}
<p style="margin:16px 0 4px;font-weight:bold">Items in this shipment</p>
<p style="margin:0;line-height:1.5">{% for line in fulfillment.line_items %}{{ line.quantity }} × {{ line.title }}<br>{% endfor %}</p>`;

const accountTemplate = (subject: string, text: string, htmlLead: string, htmlBody: string, action: string, buttonLabel: string): NotificationTemplate => ({
  subject,
  text: `${text}
${TEXT_FOOTER}`,
  html: `<h1 style="font-size:22px;margin:0 0 12px">${htmlLead}</h1>
${htmlBody}
<p style="margin:16px 0 4px">Your ${action} token (it works once, for {{ account.valid_for }}):</p>
<p style="margin:0;padding:12px;background:#f3f4f6;border-radius:4px;font-family:monospace;word-break:break-all">{{ account.token }}</p>
${button('{{ account.url }}', buttonLabel)}
${HTML_FOOTER}`,
});

export const DEFAULT_TEMPLATES: ReadonlyMap<NotificationKind, NotificationTemplate> = new Map<NotificationKind, NotificationTemplate>([
  [
    'order_confirmation',
    orderTemplate(
      'Order {{ order.name }} confirmed',
      'Thank you for your order at {{ shop.name }}. We are getting it ready and will let you know when it ships.',
      'Thank you for your order',
      '',
      '<p style="margin:0 0 8px">We are getting your order ready and will let you know when it ships.</p>',
    ),
  ],
  [
    'shipping_confirmation',
    orderTemplate(
      'A shipment from order {{ order.name }} is on the way',
      'Items from your order at {{ shop.name }} are on the way.',
      'Your order is on the way',
      TRACKING_TEXT,
      TRACKING_HTML,
    ),
  ],
  [
    'order_refund',
    orderTemplate(
      'Refund for order {{ order.name }}',
      'We refunded {{ refund.amount | money }} for your order at {{ shop.name }}. It can take a few days to show on your statement.',
      'We refunded {{ refund.amount | money }}',
      '',
      '<p style="margin:0 0 8px">It can take a few days to show on your statement.</p>',
    ),
  ],
  [
    'order_cancelled',
    orderTemplate(
      'Order {{ order.name }} cancelled',
      'Your order at {{ shop.name }} was cancelled.{% if refund.amount > 0 %} We refunded {{ refund.amount | money }}.{% endif %}',
      'Your order was cancelled',
      '',
      '{% if refund.amount > 0 %}<p style="margin:0 0 8px">We refunded {{ refund.amount | money }}. It can take a few days to show on your statement.</p>{% endif %}',
    ),
  ],
  [
    'merchant_new_order',
    {
      subject: '[{{ shop.name }}] Order {{ order.name }} placed by {{ order.email }}',
      text: `{{ order.email }} placed order {{ order.name }} for {{ order.total_price | money }}.

${TEXT_SUMMARY}
See it in the admin: {{ order.admin_url }}`,
      html: `<h1 style="font-size:22px;margin:0 0 8px">Order {{ order.name }} placed</h1>
<p style="margin:0 0 8px">{{ order.email }} placed an order for {{ order.total_price | money }}.</p>
${button('{{ order.admin_url }}', 'See it in the admin')}
${HTML_SUMMARY}`,
    },
  ],
  [
    'account_activation',
    accountTemplate(
      'Activate your account at {{ shop.name }}',
      `Someone (perhaps you) signed up at {{ shop.name }} with {{ customer.email }}. {{ shop.name }} already knows this email, so its account opens only from this message, which proves the email is yours. Open this link to choose your password (it works once, for {{ account.valid_for }}):

{{ account.url }}

The activation token, for an app: {{ account.token }}
{{ account.instructions }}
If it was not you, ignore this message: nothing has changed, and the password given at sign-up opens nothing.`,
      'Activate your account',
      '<p style="margin:0 0 8px">Someone (perhaps you) signed up at {{ shop.name }} with {{ customer.email }}. Open the account from this message to prove the email is yours. If it was not you, ignore this message.</p>',
      'activation',
      'Activate your account',
    ),
  ],
  [
    'account_invite',
    accountTemplate(
      '{{ shop.name }} invites you to open your account',
      `{{ shop.name }} invites you to open your customer account, to see your orders and keep your addresses. Open this link to choose your password (it works once, for {{ account.valid_for }}):

{{ account.url }}

The activation token, for an app: {{ account.token }}
{{ account.instructions }}
If you do not want an account, ignore this message.`,
      'Open your account',
      '<p style="margin:0 0 8px">{{ shop.name }} invites you to open your customer account, to see your orders and keep your addresses. If you do not want one, ignore this message.</p>',
      'activation',
      'Activate your account',
    ),
  ],
  [
    'password_reset',
    accountTemplate(
      'Reset your {{ shop.name }} password',
      `Someone asked to reset the password of your account at {{ shop.name }}. This reset token works once, for {{ account.valid_for }}:

{{ account.token }}

{{ account.instructions }}
If it was not you, ignore this message: your password has not changed.`,
      'Reset your password',
      '<p style="margin:0 0 8px">Someone asked to reset the password of your account at {{ shop.name }}. If it was not you, ignore this message: your password has not changed.</p>',
      'reset',
      'Go to your account',
    ),
  ],
]);

export const defaultTemplate = (kind: NotificationKind): NotificationTemplate => DEFAULT_TEMPLATES.get(kind)!;
