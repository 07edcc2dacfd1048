import { ROUTES, type RouteName, type RouteRule, guardRoute, startPath } from '@vers/domain';
import { type ComponentType, type LazyExoticComponent, Suspense } from 'react';
import { lazyChunk } from './chunks.ts';
import { Navigate, Outlet, type RouteObject, createBrowserRouter, matchRoutes, useLocation } from 'react-router';
import LoginPage from '../features/auth/LoginPage.tsx';
import { Guard } from './Guard.tsx';
import type { RouteHandle } from './Layout.tsx';
import { PageFallback } from './PageFallback.tsx';
import { ScreenError } from './ScreenError.tsx';
import { AppEffects } from './AppEffects.tsx';
import { sessionStore, useSession } from './session.ts';
import { tabTitle } from '../features/orders/editor/tab-title.ts';
import { readFirstScreenEarly } from '../offline/pictures-first-screen.ts';

type Page = LazyExoticComponent<ComponentType>;
type PageName = Exclude<RouteName, 'login'>;

// The signed-in frame (drawer, toolbar) is a chunk of its own too: the login screen does not show it.
const loadLayout = () => import('./Layout.tsx');
const Layout = lazyChunk(() => loadLayout().then((m) => ({ default: m.Layout })));

// Every screen but the login is its own chunk: the login screen loads only what it needs.
const PAGE_CHUNKS: Record<PageName, () => Promise<{ default: ComponentType }>> = {
  home: () => import('../features/home/HomePage.tsx'),
  profile: () => import('../features/profile/ProfilePage.tsx'),
  users: () => import('../features/users/UsersPage.tsx'),
  workshop: () => import('../features/workshop/WorkshopPage.tsx'),
  defaultOptions: () => import('../features/default-options/DefaultOptionsPage.tsx'),
  defaultOption: () => import('../features/default-options/DefaultOptionPage.tsx'),
  orders: () => import('../features/orders/OrdersPage.tsx'),
  addOrder: () => import('../features/orders/AddOrderPage.tsx'),
  EditOrder: () => import('../features/orders/EditOrderPage.tsx'),
  camera: () => import('../features/images/CameraPage.tsx'),
  assets: () => import('../features/documents/DocumentsPage.tsx'),
  images: () => import('../features/images/ImagesPage.tsx'),
  check: () => import('../features/sign-off/CheckPage.tsx'),
  holderOrders: () => import('../features/holder/HolderOrdersPage.tsx'),
  holderOrder: () => import('../features/holder/HolderOrderPage.tsx'),
  keepers: () => import('../features/keepers/KeepersPage.tsx'),
  deadlines: () => import('../features/deadlines/DeadlinesPage.tsx'),
};
const PAGES = Object.fromEntries(Object.entries(PAGE_CHUNKS).map(([name, load]) => [name, lazyChunk(load)])) as Record<
  PageName,
  Page
>;

/** The order in the editor at the address the page started at (signed in): its first pull is among the first loads. */
let openOrderAtStart: string | null = null;

/**
 * Signed in, the first screen's chunk and the frame's are asked for together as the app starts (main.tsx, before the
 * language's catalogue has loaded), instead of the screen's only once the frame has loaded and rendered (one round
 * trip and a render less before the first list). The lazy components then find the modules already loading: the
 * browser loads each chunk once.
 */
export function preloadFirstScreen(pathname: string): void {
  if (sessionStore.get() === null) return;
  const match = matchRoutes(
    ROUTES.filter((r) => !r.public).map((r) => ({ path: r.path, id: r.name })),
    pathname,
  )?.at(-1);
  const load = match ? PAGE_CHUNKS[match.route.id as PageName] : undefined;
  if (!load) return;
  if (match?.route.id === 'EditOrder') openOrderAtStart = match.params.orderId ?? null;
  void loadLayout().catch(() => undefined);
  void load().catch(() => undefined);
  // The picture list's first screen is read from IndexedDB now too, before React draws the frame.
  const pictures = ROUTES.find((r) => r.name === 'images');
  const orderId = match?.route.id === 'images' ? match.params.orderId : undefined;
  if (pictures && orderId && guardRoute(pictures, sessionStore.get()).kind === 'allow') readFirstScreenEarly(orderId);
}

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
  return createBrowserRouter([
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
}
