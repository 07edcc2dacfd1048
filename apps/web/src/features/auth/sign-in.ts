import { type SignInRequest, signInResponseSchema } from '@vers/domain';
import { ApiFailure, call } from '../../app/api.ts';
import { sessionStore } from '../../app/session.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { tooManyAttempts } from './too-many-attempts.ts';
import { refreshValueListsLater } from '../../offline/value-list-progress.ts';

export type SignInResult = { ok: true } | { ok: false; messageKey: string; values?: Record<string, string> };

/** POST auth/signin; on success the answer is kept as the session (docs/requirements/administration.md#auth-calls). */
export async function signIn(request: SignInRequest): Promise<SignInResult> {
  try {
    const session = await call('auth/signin', signInResponseSchema, {
      method: 'POST',
      body: request,
      handles: [0, 400, 401, 429],
    });
    sessionStore.set(session);
    // The full load of the value lists belongs to the sign-in (docs/requirements/administration.md#value-list-loading);
    // it runs in the background.
    refreshValueListsLater(currentLanguage(), 'full');
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    if (error.status === 0) return { ok: false, messageKey: 'errors.noConnection' };
    if (error.status === 401) return { ok: false, messageKey: 'errors.WRONG_LOGIN' };
    if (error.status === 429) {
      const message = tooManyAttempts(error, currentLanguage());
      return { ok: false, messageKey: message.key, ...(message.values ? { values: message.values } : {}) };
    }
    return { ok: false, messageKey: `errors.${error.code === 'VALIDATION' ? 'VALIDATION' : 'unexpected'}` };
  }
}
