import { ROUTES, type RouteRule, startPath } from '@vers/domain';
import { type ComponentType, type LazyExoticComponent, Suspense } from 'react';
import { lazyChunk } from './chunks.ts';
import { Navigate, Outlet, type RouteObject, createBrowserRouter, useLocation } from 'react-router';
import LoginPage from '../features/auth/LoginPage.tsx';
import { Guard } from './Guard.tsx';
import type { RouteHandle } from './Layout.tsx';
import { PageFallback } from './PageFallback.tsx';
import { ScreenError } from './ScreenError.tsx';
import { AppEffects } from './AppEffects.tsx';
import { useSession } from './session.ts';
import { tabTitle } from '../features/orders/editor/tab-title.ts';
import { PAGE_CHUNKS, type PageName, loadLayout, openOrderAtStart } from './first-screen.ts';
import { readOrderRowsOnTheWay } from './order-rows-on-the-way.ts';

type Page = LazyExoticComponent<ComponentType>;

const Layout = lazyChunk(() => loadLayout().then((m) => ({ default: m.Layout })));
const PAGES = Object.fromEntries(Object.entries(PAGE_CHUNKS).map(([name, load]) => [name, lazyChunk(load)])) as Record<
  PageName,
  Page
>;

function guarded(route: RouteRule): RouteObject {
  const Page = PAGES[route.name as PageName];
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

/** A page anyone may open (the check of a release's code): no guard, in the frame when signed in. */
function publicPage(route: RouteRule): RouteObject {
  const Page = PAGES[route.name as PageName];
  return {
    path: route.path,
    handle: { route } satisfies RouteHandle,
    element: (
      <Suspense fallback={<PageFallback />}>
        <Page />
      </Suspense>
    ),
  };
}

/** Signed in: the drawer and toolbar around every page; on /login and signed out: the page alone. */
function Shell() {
  const session = useSession();
  const { pathname } = useLocation();
  return (
    <>
      <AppEffects openOrderAtStart={openOrderAtStart} />
      {session && pathname !== '/login' ? (
        <Suspense fallback={<PageFallback notice />}>
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
  const router = createBrowserRouter([
    {
      element: <Shell />,
      errorElement: <ScreenError />,
      children: [
        { path: '/login', element: <LoginPage />, handle: { route: login } satisfies Partial<RouteHandle> },
        ...ROUTES.filter((r) => r.public && r.name !== 'login').map(publicPage),
        ...ROUTES.filter((r) => !r.public).map(guarded),
        { path: '*', element: <UnknownPath /> },
      ],
    },
  ]);
  readOrderRowsOnTheWay(router);
  return router;
}
