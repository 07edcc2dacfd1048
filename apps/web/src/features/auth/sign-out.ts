import { call } from '../../app/api.ts';
import { sessionStore } from '../../app/session.ts';

/** Every answer a sign-out may get: none of them concerns the user, who is signing out anyway. */
const ANY_ANSWER = [0, 400, 401, 403, 404, 429, 500, 502, 503, 504] as const;

/**
 * Signs the user out: the token is ended on the server (POST auth/signout) and the session forgotten here. The
 * browser does not wait for the server: offline or failing, the user is signed out all the same, and the token
 * then only lasts until it expires (VERS_TOKEN_HOURS).
 */
export function endSession() {
  // `call` reads the token before its first await, so clearing the session right after still sends it.
  void call('auth/signout', null, { method: 'POST', handles: ANY_ANSWER, timeoutMs: 10_000 }).catch(() => undefined);
  sessionStore.clear('user');
}
