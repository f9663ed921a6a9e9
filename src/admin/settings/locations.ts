import {
  createLocation,
  CreateLocationBody,
  getLocation,
  listLocations,
  ListLocationsQuery,
  setLocationActive,
  updateLocation,
  UpdateLocationBody,
  type LocationView,
} from '../../inventory/index.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, type FormState } from '../../http/ui/forms.js';
import { zodIssues } from '../../http/validate.js';
import { pager } from '../../http/ui/pager.js';
import { badge, heading, link, table } from '../../http/ui/parts.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, storePath, type StorePage } from '../request.js';

/**
 * `/admin/stores/<id>/settings/locations` (docs/admin.md, Locations): where the store keeps stock
 * and ships from. The list, Add location, and a location's page (edit, deactivate, activate),
 * each through the inventory service of `/v1/inventory/locations`. A product's stock and an
 * order's fulfilment choose among the active ones.
 */

type LocationPage = StorePage<{ storeId: string; locationId: string }>;
const FIELDS = new Set(['name', 'address1', 'city', 'zip', 'country_code']);

/** The form as the API's body: empty fields are none, the country code upper-cased (`gb` is GB). */
const locationBody = (form: ReadonlyMap<string, string>) =>
  new Map(
    [...FIELDS].map((k) => {
      const v = (form.get(k) ?? '').trim();
      return [k, k === 'country_code' ? v.toUpperCase() : v];
    }),
  );
/** The fields as the API's body, a blank one none (so a save can clear an address line). */
const asBody = (values: ReadonlyMap<string, string>) => Object.fromEntries([...values].map(([k, v]) => [k, k === 'name' || v !== '' ? v : null]));

const address = (l: LocationView) => [l.address1, l.city, l.zip, l.country_code].filter(Boolean).join(', ');
const path = (s: StorePage, rest = '') => storePath(s.store, `/settings/locations${rest}`);

function locationForm(s: StorePage, form: FormState, action: string, button: string): Markup {
  return html`<form class="card" method="post" action="${action}" novalidate>
    ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
    ${field(form, 'name', 'Name', { required: true, hint: 'What the stock and fulfilment forms call it, such as Warehouse or Shop floor' })}
    <div class="grid">
      ${field(form, 'address1', 'Address', { autocomplete: 'address-line1', markOptional: true })}
      ${field(form, 'city', 'City', { autocomplete: 'address-level2', markOptional: true })}
      ${field(form, 'zip', 'Postal code', { autocomplete: 'postal-code', markOptional: true })}
      ${field(form, 'country_code', 'Country code', { hint: 'Two letters, such as US or GB', markOptional: true, attrs: html`maxlength="2" autocapitalize="characters"` })}
    </div>
    <button class="button" type="submit">${button}</button>
  </form>`;
}

export async function locationsPage(s: StorePage, form: FormState = blankForm(), status = 200): Promise<void> {
  const query = parseQuery(s, ListLocationsQuery);
  const page = await listLocations(s.platform, s.store.id, query);
  const rows = page.items.map((l) => [link(path(s, `/${l.id}`), l.name), address(l) || null, l.active ? badge('active', 'ok') : badge('inactive')]);
  const body = html`<p><a href="${storePath(s.store, '/settings')}">« Settings</a></p>
    ${heading('Locations', 'Where you keep stock and ship orders from. Stock is counted per location; an inactive location keeps its counts but takes no new stock or shipments.')}
    ${table({
      label: 'Locations',
      headings: ['Name', 'Address', 'Status'],
      rows,
      empty: 'No locations yet. Add the place you ship from to keep stock and fulfil orders.',
    })}${pager({ path: path(s), params: {}, nextCursor: page.nextCursor, ...pagePosition(s) })}
    <div class="narrow"><h2 id="add">Add location</h2>${locationForm(s, form, path(s), 'Add location')}</div>`;
  s.render(storePage(s, 'settings', { title: 'Locations', body }), status);
}

export async function createLocationAction(s: StorePage): Promise<void> {
  const values = locationBody(s.form);
  const parsed = CreateLocationBody.safeParse(asBody(values));
  if (!parsed.success) return locationsPage(s, formWithIssues(values, zodIssues(parsed.error), FIELDS), 400);
  const l = await createLocation(s.platform, s.store.id, parsed.data);
  s.seeOther(path(s, `/${l.id}`), `${l.name} is added.`);
}

export async function locationPage(s: LocationPage, form?: FormState, status = 200): Promise<void> {
  const l = await getLocation(s.platform, s.store.id, s.params.locationId);
  const at = path(s, `/${l.id}`);
  const values = new Map([
    ['name', l.name],
    ['address1', l.address1 ?? ''],
    ['city', l.city ?? ''],
    ['zip', l.zip ?? ''],
    ['country_code', l.country_code ?? ''],
  ]);
  const toggle = l.active
    ? html`<form method="post" action="${at}/deactivate">${csrfInput(s.viewer.csrf)}
        <p class="muted">Deactivating keeps this location's stock counts but takes no new stock or shipments from it.</p>
        <button class="button button--danger" type="submit">Deactivate location</button>
      </form>`
    : html`<form method="post" action="${at}/activate">${csrfInput(s.viewer.csrf)}<button class="button" type="submit">Activate location</button></form>`;
  const body = html`<p><a href="${path(s)}">« Locations</a></p>
    <div class="narrow">
      ${heading(l.name, l.active ? undefined : 'Inactive: it takes no new stock or shipments.')}
      ${locationForm(s, form ?? blankForm(values), at, 'Save location')}${toggle}
    </div>`;
  s.render(storePage(s, 'settings', { title: l.name, body }), status);
}

export async function updateLocationAction(s: LocationPage): Promise<void> {
  const values = locationBody(s.form);
  const parsed = UpdateLocationBody.safeParse(asBody(values));
  if (!parsed.success) return locationPage(s, formWithIssues(values, zodIssues(parsed.error), FIELDS), 400);
  try {
    await updateLocation(s.platform, s.store.id, s.params.locationId, parsed.data);
  } catch (err) {
    return locationPage(s, refusedForm(values, err, FIELDS), 409);
  }
  s.seeOther(path(s, `/${s.params.locationId}`), 'The location is saved.');
}

export async function locationActiveAction(s: LocationPage, active: boolean): Promise<void> {
  const l = await setLocationActive(s.platform, s.store.id, s.params.locationId, active);
  s.seeOther(path(s, `/${l.id}`), `${l.name} is ${active ? 'active' : 'inactive'}.`);
}
