/**
 * The checkout's address form (docs/shop.md, Checkout): when the country changes, the province
 * field becomes that country's at once (its subdivisions, its name: State, Prefecture, County;
 * none where its addresses name none) and the postal code's label follows, from
 * `GET /checkout/address-format/<country>`. Without JavaScript the form does the same when it is
 * sent: the server answers it again with the new country's provinces to choose from.
 */
type Format = {
  province: { used: boolean; required: boolean; label: string };
  zip: { required: boolean; label: string };
  provinces: { code: string; name: string }[];
};

const country = document.querySelector<HTMLSelectElement>('select[name="country_code"]');
const slot = document.querySelector<HTMLElement>('[data-province-slot]');

function provinceField(f: Format, previous: string): HTMLElement {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  const label = document.createElement('label');
  label.htmlFor = 'f-province_code';
  label.textContent = f.province.label;
  if (!f.province.required) {
    const optional = document.createElement('span');
    optional.className = 'muted';
    optional.textContent = ' (optional)';
    label.append(optional);
  }
  const select = document.createElement('select');
  select.id = 'f-province_code';
  select.name = 'province_code';
  select.autocomplete = 'address-level1';
  select.required = f.province.required;
  select.append(new Option(`Choose a ${f.province.label.toLowerCase()}`, ''));
  for (const p of f.provinces) select.append(new Option(p.name, p.code, false, p.code === previous));
  wrap.append(label, select);
  return wrap;
}

async function swap(): Promise<void> {
  if (!country || !slot) return;
  const code = country.value;
  const previous = slot.querySelector<HTMLSelectElement>('select')?.value ?? '';
  if (!/^[A-Z]{2}$/.test(code)) return slot.replaceChildren();
  try {
    const response = await fetch(`/checkout/address-format/${code}`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!response.ok || country.value !== code) return;
    const format = (await response.json()) as Format;
    slot.replaceChildren(...(format.province.used ? [provinceField(format, previous)] : []));
    const zipLabel = document.querySelector<HTMLLabelElement>('label[for="f-zip"]');
    if (zipLabel?.firstChild) zipLabel.firstChild.textContent = format.zip.label;
  } catch {
    // Offline: the form still works, the server answers it with the country's provinces.
  }
}

country?.addEventListener('change', () => void swap());
