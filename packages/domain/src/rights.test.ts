import { describe, expect, it } from 'vitest';
import { API_RIGHTS, type ApiRight, mayWriteOrders, rightsTableMarkdown } from './rights.ts';
import { ALL_ROLES, ROLES, type Role } from './roles.ts';

const keyOf = (right: ApiRight) => `${right.method} ${right.url.replace('/api/v1', '')}`;
const admits = (right: ApiRight, role: Role) => Array.isArray(right.access) && right.access.includes(role);

describe('mayWriteOrders', () => {
  it('is true for the four workshop roles of the order routes, false for the quality manager and the others', () => {
    expect(ALL_ROLES.filter((role) => mayWriteOrders([role]))).toEqual([
      ROLES.WORKSHOP_ADMIN,
      ROLES.WORKSHOP_STAFF,
      ROLES.WORKSHOP_WAGON_QA,
      ROLES.WORKSHOP_WHEELSET_QA,
    ]);
    expect(mayWriteOrders([])).toBe(false);
  });
  it('is true when one of several roles may write', () => {
    expect(mayWriteOrders([ROLES.WORKSHOP_QA, ROLES.WORKSHOP_STAFF])).toBe(true);
  });
});

describe('the quality manager in the rights table', () => {
  const qa = ROLES.WORKSHOP_QA;

  it('may call every order, change, picture and document read that staff may call', () => {
    const reads = API_RIGHTS.filter((right) => right.method === 'GET' && admits(right, ROLES.WORKSHOP_STAFF));
    expect(reads.length).toBeGreaterThan(10);
    expect(reads.filter((right) => !admits(right, qa)).map(keyOf)).toEqual([]);
  });

  it('may change nothing but the status (signing done orders off), and make documents', () => {
    const calls = API_RIGHTS.filter((right) => right.method !== 'GET' && admits(right, qa)).map(keyOf);
    expect(calls).toEqual(['POST /orders/:id/status', 'POST /export/:orderId/:language', 'POST /orders/:id/sign-off']);
  });

  it('is refused every order write with ORDER_WRITE_FORBIDDEN, the same rule as mayWriteOrders', () => {
    const writes = API_RIGHTS.filter((right) => right.refusal === 'ORDER_WRITE_FORBIDDEN');
    expect(writes.map(keyOf).sort()).toEqual(
      [
        'DELETE /assets/:id',
        'DELETE /orders/:id',
        'PATCH /orders/:id',
        'PATCH /activity/:orderId/:counter/reverted',
        'POST /activity',
        'POST /activity/batch',
        'POST /assets',
        'POST /assets/upload',
        'POST /orders',
      ].sort(),
    );
    for (const write of writes) {
      for (const role of ALL_ROLES) expect(admits(write, role), `${keyOf(write)} ${role}`).toBe(mayWriteOrders([role]));
    }
  });

  it('shows the refusal code in the table of docs/security.md', () => {
    expect(rightsTableMarkdown()).toContain(
      '| `POST /activity` | WORKSHOP_ADMIN, STAFF, WAGON_QA, WHEELSET_QA (others: 403 ORDER_WRITE_FORBIDDEN) |',
    );
  });
});
