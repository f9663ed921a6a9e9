import type { AppManifest } from '../manifest/types.js';
import { SCOPES, isScope } from '../oauth/scopes.js';
import type { AppDocument, DeveloperDocument } from '../partners/models.js';
import { presentRating, type RatingView } from '../ratings/present.js';

/** The scopes an app asks for, with what each lets it do (the registry's words). */
export const presentScopes = (scopes: readonly string[]) => scopes.map((name) => ({ name, description: isScope(name) ? SCOPES[name] : name }));

/** A published app in the public catalog: its published version only. */
export type CatalogAppView = {
  id: string;
  handle: string;
  name: string;
  description: string;
  version: string;
  app_url: string;
  scopes: { name: string; description: string }[];
  privacy_policy_url: string;
  support_url: string | null;
  embedded: boolean;
  extension_kinds: string[];
  developer: { name: string; website_url: string | null };
  rating: RatingView;
  published_at: string;
};

export function presentCatalogApp(a: AppDocument & { published: AppManifest; published_at: Date }, developer: DeveloperDocument | null): CatalogAppView {
  const m = a.published;
  return {
    id: a._id.toHexString(),
    handle: m.handle,
    name: m.name,
    description: m.description,
    version: m.version,
    app_url: m.app_url,
    scopes: presentScopes(m.scopes),
    privacy_policy_url: m.privacy_policy_url,
    support_url: m.support_url,
    embedded: m.embedded.enabled,
    extension_kinds: [...new Set(m.extensions.map((e) => e.kind))].sort(),
    developer: { name: developer?.name ?? '', website_url: developer?.website_url ?? null },
    rating: presentRating(a.rating_summary),
    published_at: a.published_at.toISOString(),
  };
}
