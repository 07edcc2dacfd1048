import { Dexie } from 'dexie';

/**
 * A device database as an earlier app kept it, for the upgrade tests: version 2 is the spec's, version 3 added the
 * orders' search index (versdb.ts declares what came after).
 */
export function oldVersDb(name: string, version: 2 | 3): Dexie {
  const old = new Dexie(name);
  old.version(version / 10).stores({
    defaultOptions: '[key+lang], lang',
    orders: version === 2 ? 'id, sent' : 'id, sent, *searchKeys',
    orderImages: 'imageId, orderId, sent, toBeDeleted',
    orderResults: 'id, orderId, sent, [sent+orderId]',
  });
  return old;
}
