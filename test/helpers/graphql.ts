import { createClient, type Client as GraphQLHttpClient } from 'graphql-http';
import type { ExecutionResult } from 'graphql';

/**
 * A GraphQL client that is not ours: graphql-http's own (GraphQL over HTTP), pointed at one of
 * the platform's GraphQL paths with the caller's headers. `run` answers the execution result, or
 * throws graphql-http's NetworkError for an answer that is not one (a 401, a 429).
 */
export function graphqlClient(
  url: string,
  headers: Record<string, string> = {},
): { client: GraphQLHttpClient; run<T = any>(query: string, variables?: Record<string, unknown>): Promise<ExecutionResult<T, any>> } {
  const client = createClient({ url, headers });
  return {
    client,
    run: <T>(query: string, variables?: Record<string, unknown>) =>
      new Promise<ExecutionResult<T, any>>((resolve, reject) => {
        let result: ExecutionResult<T, any> | null = null;
        client.subscribe<T, any>(
          { query, ...(variables ? { variables } : {}) },
          { next: (r) => (result = r), error: reject, complete: () => (result ? resolve(result) : reject(new Error('no result'))) },
        );
      }),
  };
}

/** The headers of a merchant acting on a store, or of an app's token. */
export const asMerchant = (as: { token: string; storeId: string }) => ({ authorization: `Bearer ${as.token}`, 'x-store-id': as.storeId });
export const asApp = (token: string) => ({ authorization: `Bearer ${token}` });

/** A GraphQL request answered whatever its status (what a refused query is answered with): status, headers and the JSON body. */
export async function graphqlPost(
  url: string,
  headers: Record<string, string>,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
