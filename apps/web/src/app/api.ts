import { API_BASE, type ErrorCode, errorBodySchema } from '@vers/domain';
import type { z } from 'zod';
import { notifications } from './notifications.ts';
import { loginPath, sessionStore } from './session.ts';

/** A failed call: `status` 0 means the server could not be reached. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NO_CONNECTION' | 'BAD_RESPONSE',
    message: string,
    readonly fields: string[] = [],
    /** From Retry-After (a 429): seconds until the server takes the call again. */
    readonly retryAfterSeconds?: number,
    /** EXPORT_INCOMPLETE: the values the document still needs. */
    readonly missing: string[] = [],
  ) {
    super(message);
  }
}

/** When a refused call may be tried again, from its Retry-After header (seconds); undefined without one. */
function retryAfter(headers: Headers): number | undefined {
  const seconds = Number(headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /**
   * The caller handles these statuses itself, without the global reaction (e.g. sign-in handles 401 as
   * a wrong login).
   */
  handles?: readonly number[];
  /** A plain-text body (sent as text/plain instead of JSON), e.g. base64 image data. */
  text?: string;
  /**
   * A multipart/form-data body (the browser writes its Content-Type): a Blob in it is sent as it is, without being
   * read into the page's memory.
   */
  form?: FormData;
  /** Read a successful answer as text (a text/plain response); `schema` then checks that string. */
  textResponse?: boolean;
  /** Give up after this long: the call then fails like a lost connection (status 0). */
  timeoutMs?: number;
}

let apiOrigin = '';
/**
 * Where the API lives: '' is the page's own origin (the browser); tests in node point it at a real server, and
 * at a closed port to be offline.
 */
export function setApiOrigin(origin: string) {
  apiOrigin = origin.replace(/\/+$/, '');
}

const responseObservers = new Set<(headers: Headers) => void>();
/** Hears the headers of every answer of the server (the offline code reads the database identity from them). */
export function observeResponses(observer: (headers: Headers) => void): () => void {
  responseObservers.add(observer);
  return () => responseObservers.delete(observer);
}

let navigate: (path: string) => void = (path) => window.location.assign(path);
/** The router's navigation, so that the global reactions do not reload the page. */
export function setApiNavigator(fn: (path: string) => void) {
  navigate = fn;
}

/** The global reactions in docs/requirements/administration.md#failed-calls to a failed call. */
function reactGlobally(failure: ApiFailure) {
  switch (failure.status) {
    case 0:
      notifications.show('errors.noConnection', 'error');
      return;
    case 401: {
      // The sign-in page says why (errors.notLoggedIn), and keeps saying it: no snackbar that times out.
      const here = window.location.pathname + window.location.search;
      sessionStore.clear('401');
      navigate(loginPath(here));
      return;
    }
    case 403:
      // A refusal with a code of its own says why (ORDER_WRITE_FORBIDDEN: the roles may read orders only).
      notifications.show(`errors.${failure.code in ERROR_MESSAGE_KEYS ? failure.code : 'FORBIDDEN'}`, 'error');
      return;
    // A gateway without its server (502, 503, 504) says nothing about the session: the page shows its own error with a
    // retry and the user stays signed in. The spec's redirect to /login after a 502 looped: the login, still holding
    // the session, sent the user straight back to the page, whose call failed again a second later (issue 20).
    case 502:
    case 503:
    case 504:
      notifications.show('errors.serverUnavailable', 'error');
      return;
    default:
      notifications.show(`errors.${failure.code in ERROR_MESSAGE_KEYS ? failure.code : 'unexpected'}`, 'error');
  }
}

const ERROR_MESSAGE_KEYS: Record<string, true> = Object.fromEntries(
  errorBodySchema.shape.code.options.map((code) => [code, true]),
);

/**
 * Calls the API under /api/v1 with the session's bearer token. Any status other than 200, 201 and 204 is
 * an error (docs/requirements/administration.md#admin-calls): it is thrown as an ApiFailure after the global reaction.
 */
export async function call<T>(path: string, schema: z.ZodType<T> | null, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = sessionStore.get()?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: string | FormData | undefined;
  if (options.form !== undefined) {
    payload = options.form;
  } else if (options.text !== undefined) {
    headers['Content-Type'] = 'text/plain';
    payload = options.text;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`${apiOrigin}${API_BASE}/${path.replace(/^\//, '')}`, {
      method: options.method ?? 'GET',
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
      ...(options.timeoutMs !== undefined ? { signal: AbortSignal.timeout(options.timeoutMs) } : {}),
    });
  } catch {
    const failure = new ApiFailure(0, 'NO_CONNECTION', 'No connection to the server');
    if (!options.handles?.includes(0)) reactGlobally(failure);
    throw failure;
  }
  for (const observer of responseObservers) observer(response.headers);
  if (response.status === 200 || response.status === 201 || response.status === 204) {
    if (schema === null || response.status === 204) return undefined as T;
    const answer = options.textResponse ? response.text() : response.json();
    const parsed = schema.safeParse(await answer.catch(() => undefined));
    if (!parsed.success) throw new ApiFailure(response.status, 'BAD_RESPONSE', 'Unexpected answer from the server');
    return parsed.data;
  }
  const body = errorBodySchema.safeParse(await response.json().catch(() => undefined));
  const failure = body.success
    ? new ApiFailure(
        response.status,
        body.data.code,
        body.data.message,
        body.data.fields,
        retryAfter(response.headers),
        body.data.missing,
      )
    : new ApiFailure(response.status, response.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST', response.statusText);
  if (!options.handles?.includes(response.status)) reactGlobally(failure);
  throw failure;
}
