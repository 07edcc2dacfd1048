import type { DefaultOption, Language } from '@vers/domain';
import { Dexie, type EntityTable, type Table } from 'dexie';

/** A value list as the browser keeps it, per key and language (administration §3). */
export type LocalDefaultOption = DefaultOption;

/** The local database `versdb`, version 2, with the four stores of the spec (orders §3). */
export class VersDb extends Dexie {
  defaultOptions!: Table<LocalDefaultOption, [string, Language]>;
  // Filled by the orders, offline and images issues; declared now so the schema is the spec's from the start.
  orders!: EntityTable<{ id: string; sent: number }, 'id'>;
  orderImages!: EntityTable<{ imageId: string; orderId: string; sent: number; toBeDeleted: number }, 'imageId'>;
  orderResults!: EntityTable<{ id: string; orderId: string; sent: number }, 'id'>;

  constructor(name = 'versdb') {
    super(name);
    // Dexie opens IndexedDB at ten times the declared version: 0.2 is the spec's native version 2.
    this.version(0.2).stores({
      defaultOptions: '[key+lang], lang',
      orders: 'id, sent',
      orderImages: 'imageId, orderId, sent, toBeDeleted',
      orderResults: 'id, orderId, sent, [sent+orderId]',
    });
  }
}

export const versdb = new VersDb();
