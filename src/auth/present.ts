import type { MerchantDocument, SessionDocument } from './models.js';

export type MerchantView = { id: string; email: string; name: string; created_at: string };

export const presentMerchant = (m: MerchantDocument): MerchantView => ({
  id: m._id.toHexString(),
  email: m.email,
  name: m.name,
  created_at: m.created_at.toISOString(),
});

export type SessionView = { id: string; method: SessionDocument['method']; created_at: string; expires_at: string };

export const presentSession = (s: SessionDocument): SessionView => ({
  id: s._id.toHexString(),
  method: s.method,
  created_at: s.created_at.toISOString(),
  expires_at: s.expires_at.toISOString(),
});

/** The only place a session token appears: the response that created it. */
export const presentNewSession = (m: MerchantDocument, s: SessionDocument, token: string) => ({
  merchant: presentMerchant(m),
  session: { token, ...presentSession(s) },
});
