import { z } from 'zod';

/**
 * What a Checkout Function's program sees and what it may answer, per target (docs/extensions.md,
 * Checkout Functions). Functions only advise (spec 1): no output field can set a total, a tax, a
 * line price or a payment amount, and every output schema is strict, so a program that answers
 * `price`, `total` or any other key anywhere is refused as a whole.
 */
export const CHECKOUT_FUNCTION_TARGETS = ['coupon', 'payment_method', 'shipping', 'validation'] as const;
export type CheckoutFunctionTarget = (typeof CHECKOUT_FUNCTION_TARGETS)[number];

/** One line of the cart. Amounts are integers in the currency's minor units. */
export type FunctionCartLine = {
  variant_id: string;
  product_id: string;
  quantity: number;
  /** The unit price. */
  price: number;
  line_total: number;
  sku?: string;
  product_type?: string;
  vendor?: string;
  tags?: string[];
};

/** The cart as every program sees it. `customer` is null for a guest, `shipping_address` before the shopper gave one. */
export type FunctionCart = {
  currency: string;
  subtotal: number;
  lines: FunctionCartLine[];
  customer: { tags: string[]; orders_count?: number } | null;
  coupon_code: string | null;
  shipping_address: { country: string; province: string | null } | null;
};

/** The merchant's settings of the function: the manifest's defaults, as the merchant changed them (settings.ts). */
export type FunctionSettings = Record<string, string | number | boolean>;

export type ShippingOption = { code: string; name: string; price: number };
export type PaymentMethodChoice = { provider: string; name: string };

type CommonInput = { cart: FunctionCart; settings: FunctionSettings };

/** The input of each target: the common `cart` and `settings`, and what the target advises on. */
export type FunctionInputs = {
  coupon: CommonInput;
  validation: CommonInput;
  shipping: CommonInput & { shipping_options: ShippingOption[] };
  payment_method: CommonInput & { payment_methods: PaymentMethodChoice[] };
};
export type FunctionInput<T extends CheckoutFunctionTarget> = FunctionInputs[T];

/** At most this many operations in a shipping or payment method answer. */
export const MAX_ADVICE_OPERATIONS = 50;
/** At most this many errors in a validation answer. */
export const MAX_VALIDATION_ERRORS = 10;

const text = (max: number) => z.string().min(1).max(max);
/**
 * An object whose fields answered `null` are fields not answered (their default, or absent):
 * `{"operations": {"if": [cond, advice, null]}}` is the natural way to advise only sometimes, and
 * null is no advice (docs/extensions.md).
 */
const nullsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) : value,
    schema,
  );
const code = text(100);
const position = z.number().int().min(0).max(1000);

/** `decision` defaults to allow: `{}` is no advice. `message` is shown to the shopper when the code is refused. */
export const CouponOutput = nullsAbsent(
  z.strictObject({
    decision: z.enum(['allow', 'refuse']).default('allow'),
    message: text(200).optional(),
  }),
);

export const ShippingOperation = z.union([
  z.strictObject({ hide: code }),
  z.strictObject({ rename: z.strictObject({ code, name: text(100) }) }),
  z.strictObject({ move: z.strictObject({ code, index: position }) }),
]);
export const ShippingOutput = nullsAbsent(z.strictObject({ operations: z.array(ShippingOperation).max(MAX_ADVICE_OPERATIONS).default([]) }));

export const PaymentOperation = z.union([z.strictObject({ hide: code }), z.strictObject({ move: z.strictObject({ provider: code, index: position }) })]);
export const PaymentOutput = nullsAbsent(z.strictObject({ operations: z.array(PaymentOperation).max(MAX_ADVICE_OPERATIONS).default([]) }));

/** Each error blocks the checkout while it stands; `field` names what it is about (`shipping_address.province`). */
export const ValidationOutput = nullsAbsent(
  z.strictObject({
    errors: z
      .array(nullsAbsent(z.strictObject({ message: text(200), field: text(100).optional() })))
      .max(MAX_VALIDATION_ERRORS)
      .default([]),
  }),
);

export const OUTPUT_SCHEMAS = {
  coupon: CouponOutput,
  shipping: ShippingOutput,
  payment_method: PaymentOutput,
  validation: ValidationOutput,
} as const satisfies Record<CheckoutFunctionTarget, z.ZodType>;

export type CouponOutput = z.output<typeof CouponOutput>;
export type ShippingOperation = z.output<typeof ShippingOperation>;
export type ShippingOutput = z.output<typeof ShippingOutput>;
export type PaymentOperation = z.output<typeof PaymentOperation>;
export type PaymentOutput = z.output<typeof PaymentOutput>;
export type ValidationOutput = z.output<typeof ValidationOutput>;
export type FunctionOutput<T extends CheckoutFunctionTarget> = z.output<(typeof OUTPUT_SCHEMAS)[T]>;
