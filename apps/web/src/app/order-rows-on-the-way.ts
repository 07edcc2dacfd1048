import type { DataRouter, RouterState } from 'react-router';
import type { RouteHandle } from './Layout.tsx';
import type { dropEarlyOrderRows, readOrderRowsEarly } from '../offline/early-order-rows.ts';

type EarlyOrderRows = { readOrderRowsEarly: typeof readOrderRowsEarly; dropEarlyOrderRows: typeof dropEarlyOrderRows };

/**
 * Navigating to an order's editor from another screen starts reading the order's rows at once, while the editor's
 * chunk loads (offline/early-order-rows.ts). A move between the editor's tabs keeps the editor and its rows: nothing
 * is read. Leaving for another screen forgets a read the editor did not take.
 */
export function readOrderRowsOnTheWay(
  router: DataRouter,
  // The reading code loads with the first such navigation (it needs Dexie); a test gives its own.
  loadEarly: () => Promise<EarlyOrderRows> = () => import('../offline/early-order-rows.ts'),
) {
  const editedOrder = (state: RouterState) => {
    const match = state.matches.at(-1);
    const editor = (match?.route.handle as RouteHandle | undefined)?.route.name === 'EditOrder';
    return editor ? (match?.params.orderId ?? null) : null;
  };
  // At the address the page started at, the editor reads for itself.
  let shown = editedOrder(router.state);
  router.subscribe((state) => {
    const orderId = editedOrder(state);
    if (orderId === shown) return;
    shown = orderId;
    void loadEarly()
      .then((early) => (orderId ? early.readOrderRowsEarly(orderId) : early.dropEarlyOrderRows()))
      .catch(() => undefined);
  });
}
