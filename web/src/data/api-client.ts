import { csrfTokenSchema, errorResponseSchema } from '@meterline/domain';
import type { z } from 'zod/mini';

/** An answer from the API that is not a success: the status and the server's `{"message"}`. */
export class ApiError extends Error {
  readonly status: number;
  /** Seconds from a `Retry-After` header (429), when the server sent one. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, message: string, retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A success whose body does not match the shared schema: a contract bug, never worth a retry. */
export class ResponseShapeError extends Error {
  constructor(path: string, issues: string) {
    super(`Unexpected response from ${path}: ${issues}`);
    this.name = 'ResponseShapeError';
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** Network failures carry status 0, so callers can tell "unreachable" from a server answer. */
export const NETWORK_ERROR_MESSAGE =
  'Could not reach Meterline. Check your connection and try again.';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

const SAFE_METHODS: ReadonlySet<Method> = new Set(['GET', 'HEAD']);

let csrfToken: Promise<string> | null = null;

/** The CSRF token is fetched once and shared; a failed fetch is forgotten so the next call retries. */
function getCsrfToken(): Promise<string> {
  csrfToken ??= send('/platform/auth/csrf', { method: 'GET' })
    .then((response) => parse('/platform/auth/csrf', csrfTokenSchema, response))
    .then(({ data }) => data.token)
    .catch((error: unknown) => {
      csrfToken = null;
      throw error;
    });
  return csrfToken;
}

/** Forget the cached token, e.g. when the session it belonged to ends. */
export function resetCsrfToken(): void {
  csrfToken = null;
}

async function send(path: string, options: RequestOptions, token?: string): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers['x-csrf-token'] = token;
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  let message = `Request failed with status ${response.status}`;
  try {
    const parsed = errorResponseSchema.safeParse(await response.json());
    if (parsed.success && parsed.data.message) message = parsed.data.message;
  } catch {
    // A body that is not JSON keeps the generic message.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    message,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

async function parse<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  response: Response,
): Promise<ApiResponse<z.output<S>>> {
  if (!response.ok) throw await toApiError(response);
  const text = response.status === 204 ? '' : await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ResponseShapeError(
      path,
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  }
  return { data: parsed.data, headers: response.headers };
}

function isCsrfRefusal(error: ApiError): boolean {
  return error.status === 403 && /csrf/i.test(error.message);
}

/**
 * The one way the web app talks to the API: same origin, JSON in and out, the body parsed with the
 * shared schema. Writes carry the CSRF token; a refusal naming CSRF refreshes the token once.
 */
export async function apiRequest<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<ApiResponse<z.output<S>>> {
  const method = options.method ?? 'GET';
  if (SAFE_METHODS.has(method)) return parse(path, schema, await send(path, options));

  const first = await send(path, options, await getCsrfToken());
  if (first.status === 403) {
    const error = await toApiError(first);
    if (!isCsrfRefusal(error)) throw error;
    resetCsrfToken();
    return parse(path, schema, await send(path, options, await getCsrfToken()));
  }
  return parse(path, schema, first);
}

/** `apiRequest` for callers that need only the body. */
export async function apiFetch<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  return (await apiRequest(path, schema, options)).data;
}

/** Path segments come from URLs and user data; they are always encoded. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
