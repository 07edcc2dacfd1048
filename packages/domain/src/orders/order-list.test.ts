import { describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import {
  compareOrders,
  keptForOfflineWork,
  matchesOrderSearch,
  orderSearchKeys,
  orderSearchNeedle,
  statusesOf,
} from './order-list.ts';

const order = (overrides: Partial<Order> & { wheelsetNumbers?: string[]; lastModified?: string } = {}) => ({
  id: '00000000-0000-4000-8000-000000000001',
  number: '2026-000042',
  externalOrderNumber: '',
  maintenanceNumber: '318066501236',
  contractor: 'DBC',
  type: 'WAGON' as const,
  status: 'IN_WORK' as const,
  created: '2026-11-01T08:00:00.000Z',
  importedDate: null,
  assetId: null,
  wagonNumber: '318066501236',
  wheelsetNumber: null,
  lastCounter: 10,
  ...overrides,
});

describe('the order search', () => {
  it('takes a number as it is painted or typed: spaces, hyphens and case do not matter', () => {
    expect(orderSearchNeedle(' 31 80 6650 123-6 ')).toBe('318066501236');
    expect(orderSearchNeedle('E-12 x')).toBe('e12x');
  });

  it('finds a part of the wagon number, of the order number, or of a wheelset the order holds', () => {
    const wagon = order({ wheelsetNumbers: ['400000000015'] });
    for (const search of ['6650 123', '2026-0000', '26000042', '0000015', '']) {
      expect(matchesOrderSearch(wagon, search), search).toBe(true);
    }
    for (const search of ['999', '2027', '400000000016']) expect(matchesOrderSearch(wagon, search), search).toBe(false);
  });

  it('keys every ending of every number, so that a part anywhere is the start of a key', () => {
    const keys = orderSearchKeys(order({ maintenanceNumber: '123', number: '9-8', wheelsetNumbers: ['123'] }));
    expect(keys.sort()).toEqual(['123', '23', '3', '98', '8'].sort());
    for (const search of ['2', '12', '98', '9', '3']) {
      expect(
        keys.some((key) => key.startsWith(orderSearchNeedle(search))),
        search,
      ).toBe(matchesOrderSearch(order({ maintenanceNumber: '123', number: '9-8' }), search));
    }
  });
});

describe('the list order', () => {
  const a = order({ id: '00000000-0000-4000-8000-00000000000a', status: 'IN_QA', importedDate: null });
  const b = order({
    id: '00000000-0000-4000-8000-00000000000b',
    status: 'CREATED',
    importedDate: '2026-10-01T00:00:00.000Z',
  });
  const c = order({
    id: '00000000-0000-4000-8000-00000000000c',
    status: 'DONE',
    importedDate: '2026-09-01T00:00:00.000Z',
    created: '2026-11-02T08:00:00.000Z',
  });

  it('sorts statuses along their life cycle, not by name', () => {
    expect([a, b, c].sort(compareOrders('status', 'asc')).map((o) => o.status)).toEqual(['CREATED', 'IN_QA', 'DONE']);
    expect([a, b, c].sort(compareOrders('status', 'desc')).map((o) => o.status)).toEqual(['DONE', 'IN_QA', 'CREATED']);
  });

  it('puts orders without an imported date last both ways', () => {
    expect([a, b, c].sort(compareOrders('importedDate', 'asc')).map((o) => o.id)).toEqual([c.id, b.id, a.id]);
    expect([a, b, c].sort(compareOrders('importedDate', 'desc')).map((o) => o.id)).toEqual([b.id, c.id, a.id]);
  });

  it('breaks ties newest first, then by id, so that pages never overlap', () => {
    expect([a, b, c].sort(compareOrders('contractor', 'asc')).map((o) => o.id)).toEqual([c.id, a.id, b.id]);
  });
});

describe('what a device keeps for offline work', () => {
  const now = new Date('2026-11-26T12:00:00.000Z');
  it('keeps every open order, and done ones changed in the last 30 days', () => {
    expect(keptForOfflineWork(order({ lastModified: '2020-01-01T00:00:00.000Z' }), now)).toBe(true);
    expect(keptForOfflineWork(order({ status: 'DONE', lastModified: '2026-10-28T00:00:00.000Z' }), now)).toBe(true);
    expect(keptForOfflineWork(order({ status: 'DONE_ARCHIVED', lastModified: '2026-10-26T00:00:00.000Z' }), now)).toBe(
      false,
    );
  });

  it('keeps a done order opened on this device lately, whatever its last change', () => {
    const old = order({ status: 'DONE', lastModified: '2020-01-01T00:00:00.000Z' });
    expect(keptForOfflineWork(old, now, '2026-11-20T00:00:00.000Z')).toBe(true);
    expect(keptForOfflineWork(old, now, '2026-10-01T00:00:00.000Z')).toBe(false);
  });

  it('filters done as users see it: DONE takes the archive request too', () => {
    expect(statusesOf('DONE')).toEqual(['DONE', 'DONE_ARCHIVE_REQUESTED']);
    expect(statusesOf('open')).toEqual(['CREATED', 'IN_CREATION', 'IN_WORK', 'IN_QA']);
    expect(statusesOf('done')).toEqual(['DONE', 'DONE_ARCHIVE_REQUESTED', 'DONE_ARCHIVED']);
  });
});
