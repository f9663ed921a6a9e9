import type { DemoShape } from './demo-images.js';

/**
 * The demo store's catalogue (`npm run demo`): 30 products of a small homeware shop in three
 * departments, each with a picture drawn in code (its shape), stock at the store's one location,
 * some with variants and compare-at prices, one sold out whole and one with a sold-out variant.
 */
export type DemoVariant = { option_values: string[]; price: number; compare_at_price?: number; stock: number };
export type DemoProduct = {
  title: string;
  handle: string;
  department: 'home' | 'kitchen' | 'accessories';
  product_type: string;
  /** Besides the department: `bestseller`, `new`. */
  tags: string[];
  shape: DemoShape;
  description: string;
  /** The one option's name, when the product has variants. */
  option?: string;
  variants: DemoVariant[];
};

const one = (price: number, stock: number, compare_at_price?: number): DemoVariant[] => [
  { option_values: [], price, stock, ...(compare_at_price ? { compare_at_price } : {}) },
];

export const DEMO_PRODUCTS: DemoProduct[] = [
  // Home
  {
    title: 'Linen Throw Blanket',
    handle: 'linen-throw-blanket',
    department: 'home',
    product_type: 'Blankets',
    tags: ['bestseller'],
    shape: 'block',
    description: 'Stonewashed European linen, woven in Portugal and softened with every wash. Generous enough for two on the sofa.',
    option: 'Colour',
    variants: [
      { option_values: ['Oat'], price: 8900, compare_at_price: 11000, stock: 12 },
      { option_values: ['Sage'], price: 8900, compare_at_price: 11000, stock: 8 },
      { option_values: ['Charcoal'], price: 8900, compare_at_price: 11000, stock: 0 },
    ],
  },
  {
    title: 'Stoneware Table Lamp',
    handle: 'stoneware-table-lamp',
    department: 'home',
    product_type: 'Lighting',
    tags: ['new'],
    shape: 'lamp',
    description: 'A hand-glazed stoneware base under a pleated cotton shade. Warm, low light for reading corners.',
    variants: one(14500, 5),
  },
  {
    title: 'Hand-thrown Bud Vase',
    handle: 'hand-thrown-bud-vase',
    department: 'home',
    product_type: 'Vases',
    tags: [],
    shape: 'bottle',
    description: 'Thrown on the wheel in our Lisbon studio; no two alike. Holds a single stem or a few dried grasses.',
    variants: one(3800, 0),
  },
  {
    title: 'Beeswax Pillar Candle',
    handle: 'beeswax-pillar-candle',
    department: 'home',
    product_type: 'Candles',
    tags: ['bestseller'],
    shape: 'bottle',
    description: 'Pure beeswax with a cotton wick: a clean, honeyed burn of forty hours or more.',
    option: 'Size',
    variants: [
      { option_values: ['Small'], price: 1800, stock: 30 },
      { option_values: ['Large'], price: 2900, stock: 20 },
    ],
  },
  {
    title: 'Wool Floor Cushion',
    handle: 'wool-floor-cushion',
    department: 'home',
    product_type: 'Cushions',
    tags: ['bestseller'],
    shape: 'circle',
    description: 'A deep, round pouf in undyed wool, filled with recycled fibre. Extra seating that stays put.',
    variants: one(12500, 6, 15000),
  },
  {
    title: 'Waffle Bath Towel Set',
    handle: 'waffle-bath-towel-set',
    department: 'home',
    product_type: 'Towels',
    tags: ['bestseller'],
    shape: 'stack',
    description: 'Two bath towels and two hand towels in light, quick-drying cotton waffle.',
    variants: one(5600, 14),
  },
  {
    title: 'Oak Picture Ledge',
    handle: 'oak-picture-ledge',
    department: 'home',
    product_type: 'Shelving',
    tags: [],
    shape: 'block',
    description: 'A solid oak shelf with a lip, for prints and postcards you change with the seasons. 80 cm long.',
    variants: one(4900, 9),
  },
  {
    title: 'Rattan Storage Basket',
    handle: 'rattan-storage-basket',
    department: 'home',
    product_type: 'Storage',
    tags: ['new'],
    shape: 'circle',
    description: 'Woven by hand from natural rattan, with two sturdy handles. For blankets, toys or the laundry.',
    option: 'Size',
    variants: [
      { option_values: ['Medium'], price: 3400, stock: 10 },
      { option_values: ['Large'], price: 4600, stock: 7 },
    ],
  },
  {
    title: 'Cotton Quilted Bedspread',
    handle: 'cotton-quilted-bedspread',
    department: 'home',
    product_type: 'Bedding',
    tags: [],
    shape: 'block',
    description: 'Fine cotton voile, hand-quilted in a simple running stitch. Light enough for summer, layered in winter.',
    option: 'Size',
    variants: [
      { option_values: ['Double'], price: 16900, stock: 4 },
      { option_values: ['King'], price: 19900, stock: 3 },
    ],
  },
  {
    title: 'Terracotta Plant Pot',
    handle: 'terracotta-plant-pot',
    department: 'home',
    product_type: 'Planters',
    tags: [],
    shape: 'bottle',
    description: 'Unglazed terracotta that lets roots breathe, with a matching saucer. 18 cm across.',
    variants: one(2400, 25),
  },
  // Kitchen
  {
    title: 'Ceramic Pour-Over Set',
    handle: 'ceramic-pour-over-set',
    department: 'kitchen',
    product_type: 'Coffee',
    tags: ['bestseller'],
    shape: 'ring',
    description: 'A dripper, a carafe and two cups in speckled clay. Slow coffee, made properly.',
    variants: one(5400, 11),
  },
  {
    title: 'Speckled Stoneware Mug',
    handle: 'speckled-stoneware-mug',
    department: 'kitchen',
    product_type: 'Mugs',
    tags: ['bestseller'],
    shape: 'ring',
    description: 'A generous 350 ml mug with a thumb-friendly handle. Dishwasher and microwave safe.',
    option: 'Colour',
    variants: [
      { option_values: ['Sand'], price: 2200, stock: 40 },
      { option_values: ['Moss'], price: 2200, stock: 32 },
      { option_values: ['Slate'], price: 2200, stock: 18 },
    ],
  },
  {
    title: 'Walnut Serving Board',
    handle: 'walnut-serving-board',
    department: 'kitchen',
    product_type: 'Serveware',
    tags: ['bestseller'],
    shape: 'block',
    description: 'Oiled black walnut with a juice groove, for bread, cheese and everything after.',
    variants: one(6500, 8, 7800),
  },
  {
    title: 'Linen Tea Towels (Set of 3)',
    handle: 'linen-tea-towels',
    department: 'kitchen',
    product_type: 'Textiles',
    tags: [],
    shape: 'stack',
    description: 'Lint-free linen that dries glasses without streaks, in three stripes that go together.',
    variants: one(2600, 30),
  },
  {
    title: 'Stoneware Dinner Plates',
    handle: 'stoneware-dinner-plates',
    department: 'kitchen',
    product_type: 'Tableware',
    tags: [],
    shape: 'circle',
    description: 'Wide-rimmed 27 cm plates in a soft matte glaze that shows off food.',
    option: 'Set',
    variants: [
      { option_values: ['Set of 2'], price: 3800, stock: 15 },
      { option_values: ['Set of 4'], price: 6900, compare_at_price: 7600, stock: 9 },
    ],
  },
  {
    title: 'Cast Iron Skillet',
    handle: 'cast-iron-skillet',
    department: 'kitchen',
    product_type: 'Cookware',
    tags: ['new'],
    shape: 'circle',
    description: 'Pre-seasoned, 26 cm, and heavy in the best way. It will outlive the recipes you cook in it.',
    variants: one(7200, 6),
  },
  {
    title: 'Glass Olive Oil Bottle',
    handle: 'glass-olive-oil-bottle',
    department: 'kitchen',
    product_type: 'Pantry',
    tags: [],
    shape: 'bottle',
    description: 'A 500 ml bottle with a drip-free brass pourer. Fill it from the big tin and keep it by the stove.',
    variants: one(1900, 22),
  },
  {
    title: 'Enamel Pasta Bowl',
    handle: 'enamel-pasta-bowl',
    department: 'kitchen',
    product_type: 'Tableware',
    tags: [],
    shape: 'circle',
    description: 'Enamelled steel with a navy rim: light, tough and made for long lunches outside.',
    variants: one(2400, 16, 3000),
  },
  {
    title: 'Beechwood Utensil Set',
    handle: 'beechwood-utensil-set',
    department: 'kitchen',
    product_type: 'Utensils',
    tags: [],
    shape: 'stack',
    description: 'A spoon, a spatula and a spurtle in oiled beech, kind to every pan.',
    variants: one(3200, 18),
  },
  {
    title: 'Hand-glazed Teapot',
    handle: 'hand-glazed-teapot',
    department: 'kitchen',
    product_type: 'Tea',
    tags: ['new'],
    shape: 'ring',
    description: 'A one-litre teapot with a stainless infuser, glazed by hand in a deep celadon.',
    variants: one(6800, 0),
  },
  // Accessories
  {
    title: 'Canvas Tote Bag',
    handle: 'canvas-tote-bag',
    department: 'accessories',
    product_type: 'Bags',
    tags: ['bestseller'],
    shape: 'block',
    description: 'Heavy organic canvas with an inside pocket and long handles that sit on the shoulder.',
    option: 'Colour',
    variants: [
      { option_values: ['Natural'], price: 3400, stock: 25 },
      { option_values: ['Indigo'], price: 3400, stock: 12 },
    ],
  },
  {
    title: 'Merino Beanie',
    handle: 'merino-beanie',
    department: 'accessories',
    product_type: 'Knitwear',
    tags: [],
    shape: 'circle',
    description: 'Fine merino in a ribbed knit with a deep turn-up. Warm, and never itchy.',
    option: 'Colour',
    variants: [
      { option_values: ['Charcoal'], price: 3900, compare_at_price: 4800, stock: 10 },
      { option_values: ['Rust'], price: 3900, compare_at_price: 4800, stock: 8 },
      { option_values: ['Cream'], price: 3900, compare_at_price: 4800, stock: 6 },
    ],
  },
  {
    title: 'Leather Card Holder',
    handle: 'leather-card-holder',
    department: 'accessories',
    product_type: 'Leather goods',
    tags: [],
    shape: 'block',
    description: 'Vegetable-tanned leather, saddle-stitched by hand, with room for six cards and a folded note.',
    variants: one(4500, 15),
  },
  {
    title: 'Recycled Glass Water Bottle',
    handle: 'recycled-glass-water-bottle',
    department: 'accessories',
    product_type: 'Drinkware',
    tags: ['new'],
    shape: 'bottle',
    description: 'Recycled glass in a protective cork sleeve, with a leak-proof bamboo lid. 600 ml.',
    variants: one(2800, 20),
  },
  {
    title: 'Linen Apron',
    handle: 'linen-apron',
    department: 'accessories',
    product_type: 'Aprons',
    tags: [],
    shape: 'block',
    description: 'A cross-back apron in washed linen with two deep pockets. No ties to fumble with.',
    option: 'Size',
    variants: [
      { option_values: ['S/M'], price: 4200, stock: 9 },
      { option_values: ['L/XL'], price: 4200, stock: 7 },
    ],
  },
  {
    title: 'Brass Key Ring',
    handle: 'brass-key-ring',
    department: 'accessories',
    product_type: 'Small goods',
    tags: [],
    shape: 'ring',
    description: 'Solid brass that darkens to a warm patina where your hand holds it.',
    variants: one(1600, 35),
  },
  {
    title: 'Wool Scarf',
    handle: 'wool-scarf',
    department: 'accessories',
    product_type: 'Knitwear',
    tags: [],
    shape: 'stack',
    description: 'Lambswool woven in the Scottish Borders, long enough to wrap twice.',
    variants: one(7900, 5, 9500),
  },
  {
    title: 'Ceramic Incense Holder',
    handle: 'ceramic-incense-holder',
    department: 'accessories',
    product_type: 'Home fragrance',
    tags: [],
    shape: 'circle',
    description: 'A small glazed dish that catches the ash, with twenty cedar incense sticks.',
    variants: one(2200, 12),
  },
  {
    title: 'Notebook with Linen Cover',
    handle: 'notebook-with-linen-cover',
    department: 'accessories',
    product_type: 'Stationery',
    tags: [],
    shape: 'block',
    description: 'A5, 192 pages of lay-flat dotted paper, bound in natural linen.',
    variants: one(1800, 40),
  },
  {
    title: 'Travel Candle Tin',
    handle: 'travel-candle-tin',
    department: 'accessories',
    product_type: 'Candles',
    tags: ['new'],
    shape: 'circle',
    description: 'Fig and cedar soy wax in a lidded tin: twenty hours of home, wherever you are.',
    variants: one(1400, 50),
  },
];

/**
 * The demo's collections: one per department and the ones the Aurora theme features by handle
 * (its home page's `bestsellers`, its hero's link to `new-arrivals`, its product page's `related`,
 * its cart's `accessories`). Rule collections follow the products' tags; `related` is a hand-picked list.
 */
export type DemoCollection = { title: string; handle: string; description: string } & ({ tag: string } | { handles: string[] });

export const DEMO_COLLECTIONS: DemoCollection[] = [
  { title: 'Home', handle: 'home', tag: 'home', description: 'Linen, wool, clay and light for the rooms you live in.' },
  { title: 'Kitchen', handle: 'kitchen', tag: 'kitchen', description: 'Things to cook with, pour from and eat off, every day.' },
  { title: 'Accessories', handle: 'accessories', tag: 'accessories', description: 'Small, well-made things to carry and to give.' },
  { title: 'Bestsellers', handle: 'bestsellers', tag: 'bestseller', description: 'What our customers come back for.' },
  { title: 'New arrivals', handle: 'new-arrivals', tag: 'new', description: 'Just in from the studio and our makers.' },
  {
    title: 'You may also like',
    handle: 'related',
    handles: ['beeswax-pillar-candle', 'speckled-stoneware-mug', 'linen-tea-towels', 'canvas-tote-bag'],
    description: 'Small things that go with everything.',
  },
];
