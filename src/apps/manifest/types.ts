/**
 * The app manifest as the platform keeps it: validated and normalised (validate.ts), schema
 * version `2026-06-05.ws13` (spec 2.3, 9). docs/apps.md shows a full example.
 */
export const MANIFEST_SCHEMA_VERSION = '2026-06-05.ws13';
/** The contract version lifecycle webhooks carry (spec 2.3, 9). */
export const LIFECYCLE_CONTRACT_VERSION = '2026-06-05.ws13.lifecycle';

/** An installation's lifecycle topics (docs/apps.md, App webhooks). */
export const LIFECYCLE_TOPICS = ['app.installed', 'app.scopes_updated', 'app.uninstalled', 'app_extension.lifecycle.status_changed'] as const;
/**
 * Store events addressed to the installation whose work they finish (an app's bulk operation,
 * docs/bulk.md): every app's subscription carries them, and only the app they are for receives them.
 */
export const ADDRESSED_TOPICS = ['bulk_operation.finished'] as const;
/** The mandatory compliance topics, appended to every app's subscription (spec 6.1 rule 9). */
export const COMPLIANCE_TOPICS = ['customers.data_request', 'customers.redact', 'shop.redact'] as const;
export type ComplianceTopic = (typeof COMPLIANCE_TOPICS)[number];

export const EXTENSION_KINDS = ['admin_ui', 'checkout_ui', 'checkout_function', 'theme_app_block'] as const;
export type ExtensionKind = (typeof EXTENSION_KINDS)[number];

export const BRIDGE_CAPABILITIES = ['api.fetch', 'toast', 'resize', 'navigation.redirect'] as const;
export type BridgeCapability = (typeof BRIDGE_CAPABILITIES)[number];

export type ManifestExtension = {
  kind: ExtensionKind;
  /** Unique within the app, lowercase kebab-case. */
  handle: string;
  name: string;
  /** Where it attaches (e.g. `admin.product.details`, `checkout.payment-method`, a theme section type); kind-specific. */
  target: string;
  /**
   * Kind-specific settings, kept for the extension registry. A checkout_function's is
   * `{ program, settings? }`: the JSON Logic it runs and its settings' defaults (docs/extensions.md).
   */
  config: Record<string, unknown>;
};

export type AppManifest = {
  schema_version: typeof MANIFEST_SCHEMA_VERSION;
  name: string;
  handle: string;
  /** The partner's own version label of this submission (semver). */
  version: string;
  description: string;
  app_url: string;
  /** Exact redirect URIs (compared as strings, RFC 9700 2.1). */
  redirect_urls: string[];
  /** Normalised: sorted, deduplicated, write scopes with their reads. */
  scopes: string[];
  webhooks: { topics: string[] };
  privacy_policy_url: string;
  support_url: string | null;
  embedded: { enabled: boolean; admin_path: string };
  bridge: { capabilities: BridgeCapability[] };
  extensions: ManifestExtension[];
};
