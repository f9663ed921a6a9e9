export { generateToken, hashToken } from './tokens.js';
export { hashPassword, verifyPassword, decoyPasswordHash } from './passwords.js';
export { equalBytes, sameSecret } from './compare.js';
export { encryptSecret, decryptSecret, keyedHash, verifyKeyedHash, type SecretsKey } from './encryption.js';
