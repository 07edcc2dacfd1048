import { randomUUID } from 'node:crypto';
import { attributeValue, checkDigit, ORDER_ROOTS } from '@vers/domain';
import type { FastifyInstance } from 'fastify';
import { DEMO_KEEPER } from './demo.ts';

/*
 * Demo wagon orders for `npm start` (issue 22): wagons of the demo keeper (marking `D-GATX`) in both demo workshops,
 * one released to service and one signed off, beside another keeper's wagon, so that the demo holder sees orders of
 * more than one workshop, some signed off, and not all of them. Made through the API as the workshops' users do, so
 * that every order is what the product itself would hold.
 */

const OUT = ORDER_ROOTS.WAGON.out;
const IN = ORDER_ROOTS.WAGON.in;
const MARKING = 'Halterkurzkennzeichen';
const KEEPER_MARKING = `D-${DEMO_KEEPER.markings[0]}`;

/** A vehicle number: 11 digits and their check digit. */
const vehicle = (first11: string) => `${first11}${checkDigit(first11)}`;

interface DemoOrder {
  /** The workshop's user who makes and fills the order. */
  by: string;
  /** Who signs it off, if anyone, and how. */
  signer?: { username: string; meaning: 'RELEASED_TO_SERVICE' | 'QUALITY_CHECK_PASSED' };
  wagon: string;
  /** Outgoing and incoming keeper markings (empty: not entered). */
  marking: { out: string; in: string };
  /** More outgoing values, as `field path below the outgoing root: value`. */
  values?: Record<string, string | boolean>;
}

/** What a release to service needs entered (the domain's `releaseGaps`): ECM, maintenance level, both statements. */
const RELEASE_ENTRIES = {
  'Labeling.ECM': 'ECM-DE-0815',
  ExecutedMaintenanceLevel: 'G4.2',
  'MobileService.MaintenancePerformedCorrectly': true,
  'MobileService.ReleaseToServiceGranted': true,
} as const;

const DEMO_ORDERS: readonly DemoOrder[] = [
  {
    by: 'staff',
    signer: { username: 'wagonqa', meaning: 'RELEASED_TO_SERVICE' },
    wagon: vehicle('33807956102'),
    marking: { out: KEEPER_MARKING, in: KEEPER_MARKING },
    values: { Eigengewicht: '23950', ...RELEASE_ENTRIES },
  },
  { by: 'staff', wagon: vehicle('33807956103'), marking: { out: '', in: KEEPER_MARKING } },
  { by: 'staff', wagon: vehicle('31807956001'), marking: { out: 'D-VTG', in: 'D-VTG' } },
  {
    by: 'staff2',
    signer: { username: 'werkadmin2', meaning: 'QUALITY_CHECK_PASSED' },
    wagon: vehicle('33817956104'),
    marking: { out: KEEPER_MARKING, in: KEEPER_MARKING },
    values: { Eigengewicht: '24100' },
  },
  { by: 'staff2', wagon: vehicle('33817956105'), marking: { out: KEEPER_MARKING, in: '' } },
];

/** Fills the demo workshops with the demo wagon orders; `password` is the demo users' password. */
export async function seedDemoOrders(app: FastifyInstance, password: string): Promise<void> {
  const tokens = new Map<string, string>();
  async function call<T>(username: string, method: 'POST', url: string, payload: unknown): Promise<T> {
    let token = tokens.get(username);
    if (!token) {
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { userName: username, password },
      });
      if (signIn.statusCode !== 200) throw new Error(`demo sign-in of ${username}: ${signIn.statusCode}`);
      token = (signIn.json() as { token: string }).token;
      tokens.set(username, token);
    }
    const res = await app.inject({
      method,
      url: `/api/v1${url}`,
      payload: payload as object,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode >= 300) throw new Error(`demo order: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    return res.json() as T;
  }

  const now = new Date();
  for (const [index, demo] of DEMO_ORDERS.entries()) {
    const wheelsets = [1, 2].map((n) => ({ number: vehicle(`3180${String(7956000 + index * 10 + n)}`) }));
    const order = await call<{ id: string }>(demo.by, 'POST', '/orders', {
      id: randomUUID(),
      type: 'WAGON',
      contractor: DEMO_KEEPER.name,
      externalOrderNumber: `GATX-${2026_100 + index}`,
      maintenanceNumber: demo.wagon,
      wagon: { number: demo.wagon, wheelsetsOutgoing: wheelsets },
    });
    const entries: [string, string | boolean][] = [
      ...(demo.marking.in ? [[`${IN}.${MARKING}`, demo.marking.in] as [string, string]] : []),
      ...(demo.marking.out ? [[`${OUT}.${MARKING}`, demo.marking.out] as [string, string]] : []),
      ...Object.entries(demo.values ?? {}).map(([path, value]) => [`${OUT}.${path}`, value] as [string, string]),
    ];
    await call(demo.by, 'POST', '/activity/batch', {
      activities: entries.map(([key, value]) => ({
        id: randomUUID(),
        oI: order.id,
        k: key,
        t: 'XML_MODIFICATION',
        oV: JSON.stringify(attributeValue(value, now)),
        c: now.toISOString(),
      })),
    });
    if (demo.signer) {
      await call(demo.signer.username, 'POST', `/orders/${order.id}/sign-off`, {
        id: randomUUID(),
        password,
        meaning: demo.signer.meaning,
        status: 'DONE',
      });
    }
  }
}
