import 'fake-indexeddb/auto';
import { type Activity, LANGUAGE_STORAGE_KEY, SENT_STATES } from '@vers/domain';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '../../app/notifications.ts';
import { sessionStore } from '../../app/session.ts';
import { initI18n } from '../../i18n/index.ts';
import { localOrder, unsentRow } from '../../offline/test-support/unsent-fixtures.ts';
import { exportUnsent } from '../../offline/unsent-file.ts';
import { type LocalOrder, VersDb, versdb } from '../../offline/versdb.ts';
import UnsentChanges from './UnsentChanges.tsx';

// React reads this flag to allow act() outside a test renderer.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ME = 5;
const COLLEAGUE = 9;

/** A wagon order the server knows, at counter 10. */
const order = (local: Partial<LocalOrder> = {}) => localOrder({ lastCounter: 10 }, local);

/** An unsent change of the order, made by this device's user. */
const row = (orderId: string, fields: Partial<Activity> = {}) => unsentRow({ orderId, owner: ME, ...fields });

let container: HTMLDivElement;
let root: Root;
const others: VersDb[] = [];

const q = (testId: string) => container.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
const all = (testId: string) => [...container.querySelectorAll<HTMLElement>(`[data-testid="${testId}"]`)];

/** Lets live queries, effects and the deferred catalogue settle until the condition holds. */
async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
  throw new Error(`timed out waiting for ${what}; page: ${container.textContent}`);
}

async function render() {
  await act(async () => {
    root.render(<UnsentChanges />);
  });
  await until(() => q('unsent-count')?.dataset.count !== '', 'the count');
}

beforeAll(async () => {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
  await initI18n();
  sessionStore.set({
    token: 't',
    expiresAt: '2099-01-01T00:00:00.000Z',
    id: ME,
    username: 'worker',
    firstName: 'W',
    lastName: 'Orker',
    roles: ['ROLE_WORKSHOP_STAFF'],
    workshop: null,
  });
});

beforeEach(async () => {
  await versdb.orders.clear();
  await versdb.orderResults.clear();
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  vi.restoreAllMocks();
  await Promise.all(others.splice(0).map((db) => db.delete()));
});

describe('UnsentChanges', () => {
  it('with nothing waiting: says so, download disabled, import possible', async () => {
    await render();
    expect(q('unsent-count')?.dataset.count).toBe('0');
    expect(q('unsent-count')?.textContent).toBe('No changes are waiting to be sent on this device.');
    expect(q('unsent-download')).toHaveProperty('disabled', true);
    expect(q('unsent-import')).toHaveProperty('disabled', false);
    expect(q('unsent-import-input')?.getAttribute('accept')).toBe('.json,application/json');
    expect(q('unsent-others')).toBeNull();
    expect(q('unsent-not-applied-list')).toBeNull();
  });

  it('counts the waiting work live, with the part of another user, and lists what the server did not apply', async () => {
    const known = order();
    await versdb.orders.bulkAdd([known, order({ sent: 0, owner: COLLEAGUE })]);
    await versdb.orderResults.bulkAdd([
      row(known.id),
      row(known.id, { counterLocal: 1, owner: COLLEAGUE }),
      row(known.id, {
        sent: SENT_STATES.REFUSED,
        outputValue: '{"value":"abc","CaptureDate":"2026-11-21T10:00:00.000Z"}',
        refusal: { status: 400, code: 'INCOMPATIBLE_TYPE', message: 'x', at: '2026-11-21T11:00:00.000Z' },
      }),
      row(crypto.randomUUID(), { sent: SENT_STATES.ORDER_UNKNOWN, created: '2026-11-21T09:00:00.000Z' }),
      row(known.id, { sent: SENT_STATES.SENT, counter: 11 }),
    ]);
    await render();
    expect(q('unsent-count')?.dataset.count).toBe('3');
    expect(q('unsent-count')?.textContent).toBe('Changes waiting to be sent on this device: 3');
    expect(q('unsent-others')?.dataset.count).toBe('2');
    expect(q('unsent-download')).toHaveProperty('disabled', false);

    const entries = all('unsent-not-applied-row');
    expect(entries.map((entry) => entry.dataset.sent)).toEqual(['3', '2']);
    // The field's label arrives with the deferred catalogue.
    await until(() => entries[0]!.textContent!.includes('Tare weight'), 'the field label');
    expect(entries[0]!.textContent).toContain('A-17 · 21 81 2471 217-3');
    expect(entries[0]!.textContent).toContain('(Incoming)');
    expect(entries[0]!.textContent).toContain('abc');
    expect(entries[0]!.textContent).toContain('The value does not fit this field.');
    expect(entries[1]!.textContent).toContain('Order not on this device');
    expect(entries[1]!.textContent).toContain('The server does not know this order.');

    // A change made meanwhile shows at once.
    await act(async () => {
      await versdb.orderResults.add(row(known.id, { counterLocal: 2 }));
    });
    await until(() => q('unsent-count')?.dataset.count === '4', 'the new count');
  });

  it('imports a file and reports what it did; a bad file is refused in words', async () => {
    const source = new VersDb(`versdb-unsent-source-${crypto.randomUUID()}`);
    others.push(source);
    const offline = order({ sent: 0, owner: ME });
    await source.orders.add(offline);
    await source.orderResults.bulkAdd([row(offline.id), row(offline.id, { counterLocal: 1 })]);
    const text = JSON.stringify(await exportUnsent(source));
    await render();

    const input = q('unsent-import-input') as HTMLInputElement;
    const choose = async (content: string) => {
      Object.defineProperty(input, 'files', {
        configurable: true,
        value: [{ name: 'changes.json', text: async () => content }],
      });
      await act(async () => {
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
    };

    await choose(text);
    await until(() => q('unsent-import-result') !== null, 'the import result');
    expect(q('unsent-import-result')?.dataset.ok).toBe('true');
    expect(q('unsent-import-result')?.textContent).toContain(
      'Changes imported: 2. Orders imported: 1. Already on this device: 0.',
    );
    await until(() => q('unsent-count')?.dataset.count === '3', 'the imported work counted');

    await choose('not a file');
    await until(() => q('unsent-import-result')?.dataset.ok === 'false', 'the refusal');
    expect(q('unsent-import-result')?.dataset.reason).toBe('notJson');
    expect(q('unsent-import-result')?.textContent).toContain('not a file of unsent changes');
  });

  it('downloads the unsent work as a file', async () => {
    await versdb.orders.add(order({ sent: 0, owner: ME }));
    await render();
    const urls = URL as unknown as Record<string, unknown>;
    urls.createObjectURL = () => 'blob:vers-test';
    urls.revokeObjectURL = () => undefined;
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const shown = vi.spyOn(notifications, 'show');
    try {
      await act(async () => q('unsent-download')!.click());
      await until(() => shown.mock.calls.length > 0, 'the notification');
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^vers-unsent-\d{4}-\d{2}-\d{2}-\d{4}\.json$/);
      expect(shown).toHaveBeenCalledWith('unsent.downloaded', 'success', { name: names[0] });
    } finally {
      delete urls.createObjectURL;
      delete urls.revokeObjectURL;
    }
  });
});
