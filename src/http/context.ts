import type { ParameterizedContext } from 'koa';
import type { MerchantView, SessionView } from '../auth/index.js';
import type { StoreView } from '../stores/index.js';

export type MerchantAuth = { merchantId: string; sessionId: string; merchant: MerchantView; session: SessionView };

export type AppState = {
  requestId: string;
  auth?: MerchantAuth;
  /** The store named by X-Store-Id, checked against ownership (requireStore). */
  store?: StoreView;
};

export type AppContext = ParameterizedContext<AppState>;
