import { type RouteRule, guardRoute } from '@vers/domain';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { notifications } from './notifications.ts';
import { sessionStore, useSession } from './session.ts';

function redirectQuery(pathname: string, search: string) {
  return `/login?redirect=${encodeURIComponent(pathname + search)}`;
}

/**
 * The access guard in docs/requirements/administration.md#access-guard: no session -> login; a role list not met ->
 * logout with 403.
 */
export function Guard({ route, children }: { route: RouteRule; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const decision = guardRoute(route, session);

  useEffect(() => {
    if (decision.kind !== 'forbidden') return;
    notifications.show('errors.forbidden', 'error');
    sessionStore.clear();
    navigate(redirectQuery(location.pathname, location.search), { replace: true });
  }, [decision.kind, location.pathname, location.search, navigate]);

  if (decision.kind === 'login') {
    const target = sessionStore.endedByUser() ? '/login' : redirectQuery(location.pathname, location.search);
    return <Navigate to={target} replace />;
  }
  if (decision.kind === 'forbidden') return null;
  return <>{children}</>;
}
