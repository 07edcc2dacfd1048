import Dexie from 'dexie';
import { type LocalImage, type VersDb, versdb } from './versdb.ts';

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

/**
 * The order's pictures on this device newest first, without those waiting to be deleted, as the list shows them: their
 * number and the first `first` rows. The order comes from the keys of two indexes, so only the rows shown are read:
 * each row's PNG is a Blob kept as a file of its own, and reading a row costs the browser about a millisecond for that
 * file whatever is read of it (200 rows ~190 ms, the same rows without the PNG ~60 ms).
 */
export async function picturesFirstScreen(db: VersDb, orderId: string, first: number): Promise<PicturesFirstScreen> {
  return db.transaction('r', db.orderImages, async () => {
    const [newestFirst, deleting] = await Promise.all([
      db.orderImages
        .where('[orderId+capturedDate]')
        .between([orderId, Dexie.minKey], [orderId, Dexie.maxKey])
        .reverse()
        .primaryKeys(),
      db.orderImages.where('toBeDeleted').equals(1).primaryKeys(),
    ]);
    const gone = new Set(deleting);
    const listed = newestFirst.filter((id) => !gone.has(id));
    const rows = await db.orderImages.bulkGet(listed.slice(0, first));
    return { count: listed.length, pictures: rows.filter((row) => row !== undefined) };
  });
}

let early: { orderId: string; screen: Promise<PicturesFirstScreen> } | null = null;

/**
 * Starts the first screen's read as the app starts, when the picture list is the screen being opened (the router's
 * preloadFirstScreen): this module and the database's are small and come long before the screen's chunk, and the
 * read is done before React draws the frame. Started later, its answers waited for the main thread behind that
 * drawing (bench/: ~200 ms of a 0.8 s opening).
 */
export function readFirstScreenEarly(orderId: string): void {
  const screen = picturesFirstScreen(versdb, orderId, FIRST_CARDS);
  // Its failure is met by the screen's own reads; this keeps it from being reported as unhandled.
  screen.catch(() => undefined);
  early = { orderId, screen };
}

/** The early read of this order's first screen, once: null when none was started (or it was taken). */
export function takeEarlyFirstScreen(orderId: string): Promise<PicturesFirstScreen> | null {
  const taken = early?.orderId === orderId ? early.screen : null;
  early = null;
  return taken;
}
