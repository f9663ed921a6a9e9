import type { FunctionCart } from '../../src/apps/functions/targets.js';

/** A cart of `lines` lines (the first a mug, then tea towels), a tagged returning customer in Canada. */
export function givenCart(lines = 3, overrides: Partial<FunctionCart> = {}): FunctionCart {
  const cartLines = Array.from({ length: lines }, (_, i) => ({
    variant_id: `var_${i}`,
    product_id: `prod_${i}`,
    quantity: i + 1,
    price: 1200 + i * 100,
    line_total: (1200 + i * 100) * (i + 1),
    sku: `SKU-${i}`,
    product_type: i === 0 ? 'mug' : 'tea towel',
    vendor: 'Kiln & Co',
    tags: i === 0 ? ['fragile'] : ['linen'],
  }));
  return {
    currency: 'CAD',
    subtotal: cartLines.reduce((sum, l) => sum + l.line_total, 0),
    lines: cartLines,
    customer: { tags: ['wholesale'], orders_count: 4 },
    coupon_code: 'SPRING',
    shipping_address: { country: 'CA', province: 'QC' },
    ...overrides,
  };
}
