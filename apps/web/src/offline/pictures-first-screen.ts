import type { LocalImage } from './versdb.ts';

/**
 * The cards the picture list draws at once: one screen of a tablet (1280x800: three rows of four; a phone shows
 * three). The rest follow in a transition, which React draws in slices between frames, so that the first pictures
 * show without waiting for 200 cards (issue 19); on a larger screen the cards below the first twelve come a few
 * frames later.
 */
export const FIRST_CARDS = 12;

/** The first screen of an order's picture list: how many pictures it holds, and the newest `first` of them. */
export interface PicturesFirstScreen {
  count: number;
  pictures: LocalImage[];
}

/** The pictures' index by order and capture date (versdb.ts, version 4), under the name Dexie gives it. */
export const BY_CAPTURE_DATE = '[orderId+capturedDate]';

/**
 * One order's pictures in BY_CAPTURE_DATE, oldest first: every capture date is an ISO text, and `[]` sorts after
 * every text. The list reads them so, whole (devicePictures, images.ts) or its first screen (picturesFirstScreen),
 * so that both give pictures of the same capture time in the same order.
 */
export const orderPicturesRange = (orderId: string): [[string, string], [string, never[]]] => [
  [orderId, ''],
  [orderId, []],
];

const answer = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** The device database as it is, without creating or upgrading it (that is Dexie's part, in versdb.ts). */
function openAsItIs(database: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(database);
    // A database that does not exist yet is left to Dexie to create: nothing is made here.
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onsuccess = () => {
      // Dexie may upgrade the database while this connection reads: it gives way at once.
      open.result.onversionchange = () => open.result.close();
      resolve(open.result);
    };
    open.onerror = () => reject(open.error);
    open.onblocked = () => reject(new Error('versdb blocked'));
  });
}

/**
 * The order's pictures on this device newest first, without those waiting to be deleted, as the list shows them:
 * their number and the first `first` rows. The order comes from the keys of two indexes, so only the rows shown are
 * read: each row's PNG is a Blob kept as a file of its own, and reading a row costs the browser about a millisecond
 * for that file whatever is read of it (200 rows ~190 ms, the same rows without the PNG ~60 ms). IndexedDB's own
 * API, without Dexie: this runs as the app starts (readFirstScreenEarly), before Dexie's chunk has loaded. Fails where
 * the database does not exist yet or predates the index; the list then reads through Dexie as before.
 */
export async function picturesFirstScreen(
  database: string,
  orderId: string,
  first: number,
): Promise<PicturesFirstScreen> {
  const db = await openAsItIs(database);
  try {
    const store = db.transaction('orderImages').objectStore('orderImages');
    const [oldestFirst, deleting] = await Promise.all([
      answer(store.index(BY_CAPTURE_DATE).getAllKeys(IDBKeyRange.bound(...orderPicturesRange(orderId)))),
      answer(store.index('toBeDeleted').getAllKeys(1)),
    ]);
    const gone = new Set(deleting);
    const listed = oldestFirst.reverse().filter((id) => !gone.has(id)) as string[];
    const rows = await Promise.all(
      listed.slice(0, first).map((id) => answer(store.get(id) as IDBRequest<LocalImage | undefined>)),
    );
    return { count: listed.length, pictures: rows.filter((row) => row !== undefined) };
  } finally {
    db.close();
  }
}

let early: { orderId: string; screen: Promise<PicturesFirstScreen> } | null = null;

/**
 * Starts the first screen's read as the app starts, when the picture list is the screen being opened (the router's
 * preloadFirstScreen, from main.tsx): the read is done before React draws the frame, and before the screen's chunk
 * and Dexie's have loaded. Started later, its answers waited for the main thread behind that drawing (bench/: ~200 ms
 * of a 0.8 s opening).
 */
export function readFirstScreenEarly(orderId: string): void {
  const screen = picturesFirstScreen('versdb', orderId, FIRST_CARDS);
  // Its failure is met by the screen's own read; this keeps it from being reported as unhandled.
  screen.catch(() => undefined);
  early = { orderId, screen };
}

/** The early read of this order's first screen, once: null when none was started (or it was taken). */
export function takeEarlyFirstScreen(orderId: string): Promise<PicturesFirstScreen> | null {
  const taken = early?.orderId === orderId ? early.screen : null;
  early = null;
  return taken;
}
