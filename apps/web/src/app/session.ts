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
/** How the last session ended: a sign-out by the user returns to a plain /login, without a redirect back. */
let endedByUser = false;

function emit() {
  for (const listener of listeners) listener();
}

export const sessionStore = {
  get: (): Session | null => (current === undefined ? (current = read()) : current),
  set(session: Session) {
    current = session;
    endedByUser = false;
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(session));
    emit();
  },
  /** Ends the session: the stored user goes; later issues also clear the open order and its results here. */
  clear(byUser = false) {
    current = null;
    endedByUser = byUser;
    localStorage.removeItem(STORAGE_KEYS.user);
    emit();
  },
  endedByUser: () => endedByUser,
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
