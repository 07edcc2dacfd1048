import { ROUTES, type RouteName, type RouteRule, startPath } from '@vers/domain';
import { type ComponentType, type LazyExoticComponent, Suspense, lazy } from 'react';
import { Navigate, Outlet, type RouteObject, createBrowserRouter, useLocation } from 'react-router';
import LoginPage from '../features/auth/LoginPage.tsx';
import { Guard } from './Guard.tsx';
import type { RouteHandle } from './Layout.tsx';
import { PageFallback } from './PageFallback.tsx';
import { AppEffects } from './AppEffects.tsx';
import { useSession } from './session.ts';
import { tabTitle } from '../features/orders/editor/tab-title.ts';

type Page = LazyExoticComponent<ComponentType>;

// The signed-in frame (drawer, toolbar) is a chunk of its own too: the login screen does not show it.
const Layout = lazy(() => import('./Layout.tsx').then((m) => ({ default: m.Layout })));

// Every screen but the login is its own chunk: the login screen loads only what it needs.
const PAGES: Record<Exclude<RouteName, 'login'>, Page> = {
  home: lazy(() => import('../features/home/HomePage.tsx')),
  profile: lazy(() => import('../features/profile/ProfilePage.tsx')),
  users: lazy(() => import('../features/users/UsersPage.tsx')),
  workshop: lazy(() => import('../features/workshop/WorkshopPage.tsx')),
  defaultOptions: lazy(() => import('../features/default-options/DefaultOptionsPage.tsx')),
  defaultOption: lazy(() => import('../features/default-options/DefaultOptionPage.tsx')),
  orders: lazy(() => import('../features/orders/OrdersPage.tsx')),
  addOrder: lazy(() => import('../features/orders/AddOrderPage.tsx')),
  EditOrder: lazy(() => import('../features/orders/EditOrderPage.tsx')),
  camera: lazy(() => import('../features/images/CameraPage.tsx')),
  assets: lazy(() => import('../features/documents/DocumentsPage.tsx')),
  images: lazy(() => import('../features/images/ImagesPage.tsx')),
};

function guarded(route: RouteRule): RouteObject {
  const Page = PAGES[route.name as Exclude<RouteName, 'login'>];
  const handle: RouteHandle =
    route.name === 'EditOrder' ? { route, tab: (params) => tabTitle(params.orderType, params.tabName) } : { route };
  return {
    path: route.path,
    handle,
    element: (
      <Guard route={route}>
        <Suspense fallback={<PageFallback />}>
          <Page />
        </Suspense>
      </Guard>
    ),
  };
}

/** Signed in: the drawer and toolbar around every page; on /login and signed out: the page alone. */
function Shell() {
  const session = useSession();
  const { pathname } = useLocation();
  return (
    <>
      <AppEffects />
      {session && pathname !== '/login' ? (
        <Suspense fallback={<PageFallback />}>
          <Layout>
            <Outlet />
          </Layout>
        </Suspense>
      ) : (
        <Outlet />
      )}
    </>
  );
}

/** Unknown paths go to the start page (for roles that `/` does not admit: their first menu entry). */
function UnknownPath() {
  const session = useSession();
  return <Navigate to={session ? startPath(session) : '/'} replace />;
}

export function createRouter() {
  const login = ROUTES.find((r) => r.name === 'login');
  return createBrowserRouter([
    {
      element: <Shell />,
      children: [
        { path: '/login', element: <LoginPage />, handle: { route: login } satisfies Partial<RouteHandle> },
        ...ROUTES.filter((r) => !r.public).map(guarded),
        { path: '*', element: <UnknownPath /> },
      ],
    },
  ]);
}
