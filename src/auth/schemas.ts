import { z } from 'zod';

/** Emails are compared and stored trimmed, NFC-normalised and lower-cased. */
export const Email = z
  .string()
  .trim()
  .max(254)
  .transform((s) => s.normalize('NFC').toLowerCase())
  .pipe(z.email({ message: 'must be an email address' }));

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
export const NewPassword = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);
/** A password being checked, not set: any length the hasher accepts. */
const GivenPassword = z.string().min(1).max(PASSWORD_MAX);

/** A merchant's name: trimmed, 1 to 120 characters. */
const Name = z.string().trim().min(1).max(120);
export const SignUpBody = z.strictObject({ email: Email, password: NewPassword, name: Name });
export const UpdateMerchantBody = z.strictObject({ name: Name });
export const SignInBody = z.strictObject({ email: Email, password: GivenPassword });
export const EmailOnlyBody = z.strictObject({ email: Email });
export const VerifyCodeBody = z.strictObject({ email: Email, code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code') });
export const PasswordUpdateBody = z
  .strictObject({
    reset_token: z.string().min(1).max(200).optional(),
    current_password: GivenPassword.optional(),
    new_password: NewPassword,
  })
  .refine((b) => (b.reset_token === undefined) !== (b.current_password === undefined), {
    message: 'give exactly one of reset_token or current_password',
  });
