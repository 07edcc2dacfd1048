import { SENT_STATES } from '@vers/domain';
import { liveQuery, type Subscription } from 'dexie';
import { useSyncExternalStore } from 'react';
import { sessionStore } from '../app/session.ts';
import { deleteMarkedImages, sendImages } from './images.ts';
import { storeUnstored } from './save-client.ts';
import { isOwnWork, pushWaitingOrders, sendUnsentOrders } from './sync.ts';
import { type VersDb, versdb } from './versdb.ts';
import { checkOnline } from './online-check.ts';

/** The scheduler's period (docs/requirements/sync.md#scheduler). */
export const SYNC_INTERVAL_MS = 10_000;

export interface SyncStatus {
  online: boolean;
  /** An exchange with the server is under way. */
  running: boolean;
  /** ISO time of the last exchange that reached the server without a network failure. */
  lastSync: string | null;
  /** This user's order results waiting to be sent (sent 0): the "unsent events" indicator. */
  unsentCount: number;
  /** The key of a change of the open order the server refused as incompatible, until the next clean exchange. */
  incompatibleKey: string | null;
}

export interface SchedulerOptions {
  db?: VersDb;
  intervalMs?: number;
  now?: () => Date;
  /** The site origin whose answer tells online from offline; the page's own origin in the browser. */
  origin?: () => string;
  isSignedIn?: () => boolean;
}

/**
 * The 10-second data exchange (docs/requirements/sync.md#scheduler): every tick checks online status; when signed in
 * and no exchange runs, it sends orders created offline, then the waiting changes of every order (not only the open
 * one: see docs/decisions.md), then unsent pictures and pending picture deletes, then syncs the open order's results.
 */
export class SyncScheduler {
  private readonly db: VersDb;
  private readonly intervalMs: number;
  private readonly now: () => Date;
  private readonly origin: () => string;
  private readonly isSignedIn: () => boolean;
  private timer: ReturnType<typeof setInterval> | null = null;
  private unsentWatch: Subscription | null = null;
  private openOrderId: string | null = null;
  private current: Promise<void> | null = null;
  /** An exchange was asked for while one ran: run once more right after, so the newest edits go too. */
  private again = false;
  private status: SyncStatus = { online: true, running: false, lastSync: null, unsentCount: 0, incompatibleKey: null };
  private readonly listeners = new Set<() => void>();
  /** Exchanges ended since the page loaded, whatever their outcome, and the open orders they covered. */
  private endedExchanges = 0;
  /** Online checks begun: the number of the newest. */
  private onlineChecks = 0;
  /** The number of the newest online check that found the site; 0 before any did. */
  private lastFoundCheck = 0;
  private readonly coveredOrders = new Set<string>();
  private readonly loadWaiters = new Set<() => void>();

  constructor(options: SchedulerOptions = {}) {
    this.db = options.db ?? versdb;
    this.intervalMs = options.intervalMs ?? SYNC_INTERVAL_MS;
    this.now = options.now ?? (() => new Date());
    this.origin = options.origin ?? (() => location.origin);
    this.isSignedIn = options.isSignedIn ?? (() => sessionStore.get() !== null);
  }

  /** Starts the timer and the live unsent count; the first tick runs at once. */
  start(): void {
    if (this.timer !== null) return;
    // A live query updates the indicator as soon as an edit is stored, not only every 10 seconds.
    void this.countOthersUnsent().catch(() => undefined);
    this.unsentWatch = liveQuery(() => this.countUnsent()).subscribe({
      next: (unsentCount) => this.update({ unsentCount }),
      error: () => undefined,
    });
    // Edits a reloaded or closed page left unstored (save-client.ts): stored now, sent by the exchanges.
    void storeUnstored(this.db);
    this.restartTimer();
    // The browser saying the network is back: exchange at once rather than at the next tick, up to 10 s later.
    if (typeof window !== 'undefined') window.addEventListener('online', this.onBrowserOnline);
    void this.tick();
  }

  private readonly onBrowserOnline = () => void this.exchangeNow();

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onBrowserOnline);
    this.unsentWatch?.unsubscribe();
    this.unsentWatch = null;
  }

  /** The order open in the editor, whose results each tick exchanges; null when none is open. */
  setOpenOrder(orderId: string | null): void {
    this.openOrderId = orderId;
  }

  /** Runs a tick at once and restarts the timer (leaving the edit route, docs/requirements/sync.md#scheduler). */
  exchangeNow(): Promise<void> {
    if (this.timer !== null) this.restartTimer();
    return this.tick(true);
  }

  /**
   * Settles once the page's first loads are done, whatever their outcome: an exchange that covered `orderId` (the
   * order open in the editor when the page started) has ended, or with none, the first exchange. Work that can wait,
   * such as the service worker's precache, waits for it so as not to compete with that order's first pull (issue 19).
   * The editor names its order only once its chunk has loaded, often after the first exchange has ended: hence the
   * order, not the first exchange. Should the editor never name it (a redirect), the second exchange ends the wait.
   */
  firstLoadsEnded(orderId: string | null): Promise<void> {
    const done = () =>
      orderId === null ? this.endedExchanges >= 1 : this.coveredOrders.has(orderId) || this.endedExchanges >= 2;
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        this.loadWaiters.delete(check);
        resolve();
      };
      this.loadWaiters.add(check);
    });
  }

  getStatus = (): SyncStatus => this.status;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** One tick; resolves when its exchange (if any) has ended. */
  async tick(force = false): Promise<void> {
    const check = ++this.onlineChecks;
    const online = await checkOnline(this.origin());
    // Only the newest check sets the banner: one begun before the network came back can fail after a newer one has
    // succeeded (it waits up to 5 s for an answer), and turned the banner on again until the next tick, 10 s later.
    if (check === this.onlineChecks) this.update({ online });
    if (online) this.lastFoundCheck = Math.max(this.lastFoundCheck, check);
    if (!online || !this.isSignedIn()) return;
    if (this.current) {
      // A timer tick skips a running exchange; an explicit one waits for it and runs again.
      if (!force) return;
      this.again = true;
      return this.current;
    }
    this.current = this.runExchanges();
    return this.current;
  }

  private async runExchanges(): Promise<void> {
    this.update({ running: true });
    try {
      do {
        this.again = false;
        const orderId = this.openOrderId;
        const started = performance.now();
        await this.exchange();
        // User Timing for the browser's performance tools and the tests: the last exchange, and the order it covered.
        // Only the last is kept: one every 10 s would otherwise pile up in the page's timeline all day.
        performance.clearMeasures('vers:exchange');
        performance.measure('vers:exchange', { start: started, detail: { orderId } });
        this.endedExchanges += 1;
        if (orderId !== null) this.coveredOrders.add(orderId);
        for (const check of this.loadWaiters) check();
      } while (this.again);
    } finally {
      this.current = null;
      await this.countOthersUnsent().catch(() => undefined);
      this.update({ running: false, unsentCount: await this.countUnsent().catch(() => this.status.unsentCount) });
    }
  }

  private async exchange(): Promise<void> {
    // An exchange can fail long after it began (a call waits up to its timeout): if a check begun since then found
    // the site, the network is back and the failure is old news. The banner stays off, and the exchange runs again
    // at once (that check's tick skipped it, as this one was running).
    const begun = this.onlineChecks;
    const offline = () => {
      if (this.lastFoundCheck > begun) this.again = true;
      else this.update({ online: false });
    };
    try {
      // The exchange and heal code loads with the first exchange, not with every screen that shows the sync status.
      const { exchangeOrder, healIfRestored } = await import('./restore.ts');
      const orders = await sendUnsentOrders(this.db);
      if (orders.offline) return offline();
      // A restored server: heal what the device holds before sending more
      // (docs/requirements/sync.md#data-flow-restored-server).
      if ((await healIfRestored(this.db)) === null) return offline();
      const waiting = await pushWaitingOrders(this.db);
      if (waiting.offline) return offline();
      // Pictures after the changes: they are large, and the values matter more (docs/requirements/sync.md#scheduler).
      const images = await sendImages(this.db);
      if (images.offline) return offline();
      await deleteMarkedImages(this.db);
      const orderId = this.openOrderId;
      if (orderId !== null) {
        const result = await exchangeOrder(this.db, orderId);
        if (result.offline) return offline();
        this.update({ incompatibleKey: result.incompatibleKey ?? null });
      }
      this.update({ lastSync: this.now().toISOString() });
    } catch (error) {
      // A local database fault: report it, keep the timer alive; the rows are untouched and the next tick retries.
      console.error('sync failed', error);
    }
  }

  /**
   * Waiting changes of other users of this device, counted once per exchange: the live count after each edit
   * then needs only the index count (reading every waiting row after each keystroke slows long offline work).
   */
  private othersUnsent = 0;

  /**
   * The user's changes waiting on this device, counted now. The live count (getStatus) has no answer before the
   * scheduler has started and its first query has run: signing out in the first moments after a reload asked it and
   * heard 0, so the warning that unsent work stays behind did not come.
   */
  async countUnsentNow(): Promise<number> {
    await this.countOthersUnsent();
    return this.countUnsent();
  }

  private async countOthersUnsent(): Promise<void> {
    const rows = await this.db.orderResults.where('sent').equals(SENT_STATES.UNSENT).toArray();
    this.othersUnsent = rows.filter((row) => !isOwnWork(row)).length;
  }

  private async countUnsent(): Promise<number> {
    const all = await this.db.orderResults.where('sent').equals(SENT_STATES.UNSENT).count();
    return Math.max(0, all - this.othersUnsent);
  }

  private restartTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
  }

  private update(patch: Partial<SyncStatus>): void {
    const next = { ...this.status, ...patch };
    const keys = Object.keys(patch) as (keyof SyncStatus)[];
    if (keys.every((key) => next[key] === this.status[key])) return;
    // A new object per change: useSyncExternalStore compares snapshots by identity.
    this.status = next;
    for (const listener of this.listeners) listener();
  }
}

/** The app's scheduler over `versdb`; started by the app shell once signed in. */
export const syncScheduler = new SyncScheduler();

export function useSyncStatus(scheduler: SyncScheduler = syncScheduler): SyncStatus {
  return useSyncExternalStore(scheduler.subscribe, scheduler.getStatus);
}

/**
 * One part of the sync status: the component re-renders only when that part changes, not at every change of the
 * unsent count (after every saved edit).
 */
export function useSyncStatusOf<K extends keyof SyncStatus>(
  key: K,
  scheduler: SyncScheduler = syncScheduler,
): SyncStatus[K] {
  return useSyncExternalStore(scheduler.subscribe, () => scheduler.getStatus()[key]);
}
