import { resetCsrfToken } from '../src/data/api-client';

/**
 * Answers a component test's requests from handlers written from the API's contract (the spec's calls and
 * their documented answers), noting each request for assertions: for component tests that need chosen
 * answers without a running server. The app's own fetch client runs unchanged. The browser tests (e2e/)
 * and real-api.ts run against the real server.
 */
export interface ContractRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface ContractAnswer {
  status?: number;
  body?: unknown;
}

export type ContractHandler = (request: ContractRequest) => ContractAnswer;

export interface ContractApi {
  requests: ContractRequest[];
  /** Requests other than GET and HEAD, CSRF included out. */
  writes(): ContractRequest[];
  /** Replaces or adds the handler of `METHOD /path`. */
  on(route: string, handler: ContractHandler): void;
  restore(): void;
}

export function installContractApi(routes: Record<string, ContractHandler>): ContractApi {
  const original = globalThis.fetch;
  const handlers = new Map(Object.entries(routes));
  handlers.set('GET /platform/auth/csrf', () => ({ body: { token: 'csrf-test-token' } }));
  const requests: ContractRequest[] = [];

  globalThis.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://meterline.test');
    const method = init.method ?? 'GET';
    const request: ContractRequest = {
      method,
      path: url.pathname,
      headers: Object.fromEntries(new Headers(init.headers)),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const handler = handlers.get(`${method} ${url.pathname}`);
    const answer = handler
      ? handler(request)
      : { status: 404, body: { message: `No contract for ${method} ${url.pathname}` } };
    const status = answer.status ?? 200;
    return new Response(
      status === 204 || answer.body === undefined ? null : JSON.stringify(answer.body),
      { status, headers: { 'content-type': 'application/json' } },
    );
  };
  resetCsrfToken();

  return {
    requests,
    writes: () =>
      requests.filter(
        (request) =>
          !['GET', 'HEAD'].includes(request.method) && request.path !== '/platform/auth/csrf',
      ),
    on(route, handler) {
      handlers.set(route, handler);
    },
    restore() {
      globalThis.fetch = original;
      resetCsrfToken();
    },
  };
}
