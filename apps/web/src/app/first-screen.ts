import { ROUTES, type RouteName, guardRoute } from '@vers/domain';
import type { ComponentType } from 'react';
import { matchRoutes } from 'react-router';
import { sessionStore } from './session.ts';
import { readFirstScreenEarly } from '../offline/pictures-first-screen.ts';

// What the app loads first, apart from the app itself (main.tsx): the screen at the address the page starts at.
// Kept out of router.tsx, whose modules (React's renderer aside, the rest of the app) are evaluated in a later task.

export type PageName = Exclude<RouteName, 'login'>;

// The signed-in frame (drawer, toolbar) is a chunk of its own too: the login screen does not show it.
export const loadLayout = () => import('./Layout.tsx');

// Every screen but the login is its own chunk: the login screen loads only what it needs.
export const PAGE_CHUNKS: Record<PageName, () => Promise<{ default: ComponentType }>> = {
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

/** The order in the editor at the address the page started at (signed in): its first pull is among the first loads. */
export let openOrderAtStart: string | null = null;

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
  // Each load goes out in a task of its own, right after the entry's: Vite's preload helper adds a link to the page
  // for every file of the chunk not yet asked for (~60 in all), ~45 ms at a phone's 4x CPU slowdown that made the
  // task it ran in that much longer (Lighthouse's total blocking time).
  setTimeout(() => void loadLayout().catch(() => undefined), 0);
  setTimeout(() => void load().catch(() => undefined), 0);
  // The picture list's first screen is read from IndexedDB now too, before React draws the frame.
  const pictures = ROUTES.find((r) => r.name === 'images');
  const orderId = match?.route.id === 'images' ? match.params.orderId : undefined;
  if (pictures && orderId && guardRoute(pictures, sessionStore.get()).kind === 'allow') readFirstScreenEarly(orderId);
}
