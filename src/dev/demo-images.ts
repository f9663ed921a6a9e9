import { encodePng } from './png.js';

/** The outline a demo product's picture shows, roughly what the product is. */
export type DemoShape = 'circle' | 'ring' | 'bottle' | 'block' | 'stack' | 'lamp';

/**
 * A product picture for the demo store, drawn in code: a soft diagonal gradient in pastel tones
 * of `hue` (degrees), a shape in a deeper tone of a neighbouring hue with an anti-aliased edge, a
 * lighter highlight on it and a soft shadow under it. Square, `size` pixels a side, a PNG of a
 * few tens of kilobytes (smooth gradients, stored with the "sub" filter).
 */
export function demoProductImage(shape: DemoShape, hue: number, size = 640): Buffer {
  const top = hsl(hue, 0.45, 0.92);
  const bottom = hsl(hue + 25, 0.4, 0.8);
  const body = hsl(hue + 35, 0.34, 0.58);
  const light = hsl(hue + 35, 0.4, 0.7);
  const shadow = hsl(hue + 25, 0.3, 0.55);
  const pixels = Buffer.alloc(size * size * 3);
  const s = size / 800; // shapes are laid out on an 800-pixel square
  for (let y = 0; y < size; y++) {
    const v = y / s;
    for (let x = 0; x < size; x++) {
      const u = x / s;
      // Background: a diagonal gradient, lighter at the top left; a soft shadow on the "table"
      // under the shape; the shape; the light on it.
      const t = Math.min(1, Math.max(0, (u * 0.35 + v * 0.65) / 800));
      // (Every shape lies within 120..680 × 120..680, its shadow within 600..710 down.)
      const shade = v > 600 && v < 710 ? 0.35 * (1 - smoothstep(-0.6, 0.5, Math.hypot((u - 400) / 230, (v - 655) / 34) - 1)) : 0;
      const inside = u > 120 && u < 680 && v > 120 && v < 680 ? coverage(shapeDistance(shape, u, v), s) : 0;
      const lit = inside > 0 ? 0.55 * coverage(highlightDistance(shape, u, v), s) * inside : 0;
      const i = (y * size + x) * 3;
      for (let k = 0; k < 3; k++) {
        let c = top[k]! + (bottom[k]! - top[k]!) * t;
        c += (shadow[k]! - c) * shade;
        c += (body[k]! - c) * inside;
        c += (light[k]! - c) * lit;
        pixels[i + k] = Math.round(c);
      }
    }
  }
  return encodePng(size, size, 3, pixels, { filter: 'sub' });
}

type Rgb = [number, number, number];

/** How much of a pixel a signed distance (negative inside, in 800-square units) covers: one pixel of anti-aliasing. */
const coverage = (d: number, scale: number) => Math.min(1, Math.max(0, 0.5 - d * scale));

const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

function hsl(hue: number, saturation: number, lightness: number): Rgb {
  const h = (((hue % 360) + 360) % 360) / 360;
  const q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation;
  const p = 2 * lightness - q;
  const channel = (t: number) => {
    const k = (t + 1) % 1;
    const v = k < 1 / 6 ? p + (q - p) * 6 * k : k < 1 / 2 ? q : k < 2 / 3 ? p + (q - p) * (2 / 3 - k) * 6 : p;
    return Math.round(v * 255);
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

/** Signed distance to a rounded box centred at (cx, cy) with half sizes (hw, hh) and corner radius r. */
function roundBox(u: number, v: number, cx: number, cy: number, hw: number, hh: number, r: number): number {
  const qx = Math.abs(u - cx) - hw + r;
  const qy = Math.abs(v - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

const circle = (u: number, v: number, cx: number, cy: number, r: number) => Math.hypot(u - cx, v - cy) - r;

function shapeDistance(shape: DemoShape, u: number, v: number): number {
  switch (shape) {
    case 'circle': // a plate, a bowl seen from above, a candle's top
      return circle(u, v, 400, 400, 235);
    case 'ring': // a mug or a cup: a body and a handle
      return Math.min(roundBox(u, v, 375, 420, 150, 200, 40), Math.abs(circle(u, v, 540, 420, 85)) - 26);
    case 'bottle': // a vase, a bottle, a candle
      return Math.min(roundBox(u, v, 400, 450, 130, 190, 70), roundBox(u, v, 400, 235, 48, 70, 18));
    case 'block': // a board, a book, a folded blanket
      return roundBox(u, v, 400, 420, 250, 190, 36);
    case 'stack': // towels, napkins, a set
      return Math.min(roundBox(u, v, 400, 530, 250, 60, 30), roundBox(u, v, 400, 410, 225, 55, 30), roundBox(u, v, 400, 295, 200, 52, 30));
    case 'lamp': {
      // a lamp: a shade (a trapezoid, wider at the bottom) on a stem and a foot
      const side = (Math.abs(u - 400) - (120 + (v - 150) * 0.55)) / Math.hypot(1, 0.55);
      const shade = Math.max(side, 150 - v, v - 390);
      return Math.min(shade, roundBox(u, v, 400, 500, 14, 120, 7), roundBox(u, v, 400, 628, 110, 20, 14));
    }
  }
}

/** Where the light falls on the shape: an offset, smaller copy of it. */
function highlightDistance(shape: DemoShape, u: number, v: number): number {
  switch (shape) {
    case 'circle':
      return circle(u, v, 355, 350, 120);
    case 'ring':
      return roundBox(u, v, 320, 400, 45, 160, 30);
    case 'bottle':
      return roundBox(u, v, 355, 440, 30, 150, 28);
    case 'block':
      return roundBox(u, v, 400, 260, 230, 22, 12);
    case 'stack':
      return roundBox(u, v, 400, 262, 185, 14, 10);
    case 'lamp':
      return roundBox(u, v, 330, 275, 30, 90, 20);
  }
}
