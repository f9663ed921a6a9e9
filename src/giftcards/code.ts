import { randomBytes } from 'node:crypto';

/** 32 symbols without 0/O and 1/I, so a code read aloud or from a print-out is unambiguous. */
export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const GENERATED_CODE_LENGTH = 16;
export const MERCHANT_CODE = /^[A-Z0-9]{8,20}$/;

/** The form codes are hashed and compared in: spaces and dashes removed, upper case. */
export const normalizeCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();

/** 16 symbols from node:crypto: 32 symbols is 5 bits each, so a byte masked to 5 bits has no bias (80 bits in all). */
export function generateCode(): string {
  const bytes = randomBytes(GENERATED_CODE_LENGTH);
  let code = '';
  for (const byte of bytes) code += CODE_ALPHABET[byte & 31];
  return code;
}

/** `XXXX XXXX XXXX XXXX`: how a generated code is shown (input may carry any spacing). */
export const groupCode = (code: string): string => code.replace(/(.{4})(?=.)/g, '$1 ');
