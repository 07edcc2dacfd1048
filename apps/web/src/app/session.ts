import { STORAGE_KEYS, type SignInResponse, signInResponseSchema } from '@vers/domain';
import { useSyncExternalStore } from 'react';

/** The signed-in user, kept in local storage so a reload (or an offline start) keeps the session. */
export type Session = SignInResponse;

type Listener = () => void;
const listeners = new Set<Listener>();

function read(): Session | null {
  const raw = localStorage.getItem(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    const parsed = signInResponseSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Read on first use, so that importing this module (e.g. from the sync code in node tests) touches no storage. */
let current: Session | null | undefined;
/**
 * How the last session ended: by the user (a sign-out returns to a plain /login, without a redirect back), by the
 * server (401: not signed in any more) or by the route guard (403: no rights for the page). The sign-in page says why.
 */
export type SessionEnd = 'user' | '401' | '403';
let ended: SessionEnd | null = null;

function emit() {
  for (const listener of listeners) listener();
}

export const sessionStore = {
  get: (): Session | null => (current === undefined ? (current = read()) : current),
  set(session: Session) {
    current = session;
    ended = null;
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(session));
    emit();
  },
  /** Ends the session: the stored user goes; later issues also clear the open order and its results here. */
  clear(why: SessionEnd) {
    current = null;
    ended = why;
    localStorage.removeItem(STORAGE_KEYS.user);
    emit();
  },
  /** Why the last session of this page ended, or null while one is open or none ended yet. */
  ended: (): SessionEnd | null => (current ? null : ended),
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// Another tab signing in or out changes this tab's session too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.user) {
      current = read();
      emit();
    }
  });
}

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}

/** The query parameter that tells the sign-in page why the session ended (the reason survives a reload there). */
export const LOGIN_REASON_PARAM = 'reason';

/**
 * Where a page sends a user without a session: back to a plain /login after their own sign-out, else to
 * /login?redirect=<the page>, with the reason (401, 403) when the server or the route guard ended the session. The
 * route guard and the API's reaction to a 401 both go through here, so whichever navigates last goes to the same
 * place (an earlier guard lost the reason this way).
 */
export function loginPath(here: string): string {
  const why = sessionStore.ended();
  if (why === 'user') return '/login';
  // Already on the sign-in: keep its own redirect.
  if (here.startsWith('/login')) return here;
  const reason = why ? `&${LOGIN_REASON_PARAM}=${why}` : '';
  return `/login?redirect=${encodeURIComponent(here)}${reason}`;
}
