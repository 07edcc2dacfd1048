import { type RouteRule, guardRoute } from '@vers/domain';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { loginPath, sessionStore, useSession } from './session.ts';

/**
 * The access guard in docs/requirements/administration.md#access-guard: no session -> login; a role list not met ->
 * logout with 403. The sign-out only ends the session (with its reason); the one navigation to the sign-in is the
 * no-session branch's, which carries the reason, so nothing else can navigate after it and drop the reason.
 */
export function Guard({ route, children }: { route: RouteRule; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const decision = guardRoute(route, session);

  useEffect(() => {
    if (decision.kind === 'forbidden') sessionStore.clear('403');
  }, [decision.kind]);

  if (decision.kind === 'login') return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  if (decision.kind === 'forbidden') return null;
  return <>{children}</>;
}
