import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { readOrderRowsOnTheWay } from './order-rows-on-the-way.ts';

// What the router asks of the early read: the test sees the calls, IndexedDB has its own test (early-order-rows).
const early = { read: vi.fn<(orderId: string) => void>(), drop: vi.fn<() => void>() };
const loadEarly = () => Promise.resolve({ readOrderRowsEarly: early.read, dropEarlyOrderRows: early.drop });

const ROUTES = [
  { path: '/orders', handle: { route: { name: 'orders' } } },
  { path: '/orders/:orderType/:orderId/:tabName?', handle: { route: { name: 'EditOrder' } } },
];

/** Resolves once the router's calls (through a dynamic import) have come: `calls` in all, in order. */
const calls = (count: number) =>
  vi.waitFor(() => {
    const all = [
      ...early.read.mock.calls.map((call, i) => ({
        at: early.read.mock.invocationCallOrder[i]!,
        call: `read ${call[0]}`,
      })),
      ...early.drop.mock.calls.map((_, i) => ({ at: early.drop.mock.invocationCallOrder[i]!, call: 'drop' })),
    ];
    expect(all.map((entry) => entry.call)).toHaveLength(count);
    return all.sort((a, b) => a.at - b.at).map((entry) => entry.call);
  });

describe('reading an order’s rows on the way to the editor', () => {
  it('reads when the editor of an order is navigated to, not on a move between its tabs; forgets on leaving', async () => {
    const router = createMemoryRouter(ROUTES, { initialEntries: ['/orders'] });
    readOrderRowsOnTheWay(router, loadEarly);
    await router.navigate('/orders/wagon/a1/basedata');
    await router.navigate('/orders/wagon/a1/brakes');
    await router.navigate('/orders/wagon/a1');
    expect(await calls(1)).toEqual(['read a1']);
    // Straight to another order's editor (a link in the editor), then back to the list.
    await router.navigate('/orders/wagon/b2/basedata');
    await router.navigate('/orders');
    expect(await calls(3)).toEqual(['read a1', 'read b2', 'drop']);
    router.dispose();
  });

  it('does not read for the editor the page started at: the editor reads for itself', async () => {
    early.read.mockClear();
    early.drop.mockClear();
    const router = createMemoryRouter(ROUTES, { initialEntries: ['/orders/wagon/c3/basedata'] });
    readOrderRowsOnTheWay(router, loadEarly);
    await router.navigate('/orders/wagon/c3/brakes');
    await router.navigate('/orders');
    expect(await calls(1)).toEqual(['drop']);
    router.dispose();
  });
});
