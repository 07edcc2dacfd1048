import {
  type Activity,
  type CreateOrderRequest,
  type DefaultOption,
  type Language,
  type ListedOrder,
  type Order,
  type Refusal,
  orderSearchKeys,
} from '@vers/domain';
import { type DBCore, Dexie, type EntityTable, type Middleware, type Table } from 'dexie';

/** A value list as the browser keeps it, per key and language (docs/requirements/administration.md#value-lists). */
export type LocalDefaultOption = DefaultOption;

/**
 * An order as the browser keeps it (docs/requirements/sync.md#local-database,
 * docs/requirements/sync.md#order-sync-flag). `sent` 0: created offline and not yet known to the server; `request` then
 * holds the creation payload that `sendUnsentOrders` posts (kept afterwards: nothing entered is lost).
 */
export interface LocalOrder {
  id: string;
  sent: 0 | 1;
  /** As the list calls answer it (with its last change and wheelset numbers), or as `GET orders/{id}` does. */
  order: Order | ListedOrder;
  /**
   * Every ending of every number the order is found by (domain `orderSearchKeys`), for the offline search's index;
   * written by the database itself on every write of the row (`searchKeysOfOrders` below).
   */
  searchKeys?: string[];
  /** ISO time the editor last opened it here: an order opened on demand stays on the device for offline work. */
  opened?: string;
  request?: CreateOrderRequest;
  /** ISO time the row was written locally. */
  created?: string;
  /** The user who created it offline: only their session sends it (a shared tablet keeps each user's work apart). */
  owner?: number;
  /** Why the server refused to create it (a 4xx other than a lost connection); it stays unsent and visible. */
  refusal?: Refusal;
}

/**
 * A picture of an order (docs/requirements/sync.md#order-image): the PNG, kept until the server has it (`sent` 1,
 * then `assetId` is the server's id, which is `imageId` itself: the browser makes the id). `toBeDeleted` 1: the user
 * deleted it while the server could not be told; the scheduler retries.
 */
export interface LocalImage {
  imageId: string;
  orderId: string;
  /** The editor tab it was taken from. */
  tabName: string;
  name: string;
  /**
   * The PNG, as a Blob: a list reading the rows gets a reference to it, not its bytes. Rows kept before issue 19
   * hold base64 text without a data: prefix (the spec's form) until the images screen turns them into a Blob.
   * Absent for a picture of another device until it is opened large: its thumbnail is enough for the list.
   */
  data?: Blob | string;
  /** A small JPEG (or PNG) data URL for lists, made on the device or by the server; absent until made. */
  thumb?: string;
  size: number;
  /** ISO time it was taken. */
  capturedDate: string;
  sent: 0 | 1;
  toBeDeleted: 0 | 1;
  assetId?: string;
  /** Who took it (their name), shown beside it. */
  creator?: string;
  /** The user who took it on this device: only their session uploads it. */
  owner?: number;
  /** Why the server refused it for good (e.g. not a PNG, too large); it stays here, shown with the reason. */
  refusal?: Refusal;
}

/**
 * Writes the search keys of every order row put into the orders store, whoever writes it: the offline search's index
 * (`*searchKeys`) then always matches the order the row holds.
 */
const searchKeysOfOrders: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'orderSearchKeys',
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      if (name !== 'orders') return table;
      return {
        ...table,
        mutate: (request) =>
          table.mutate(
            request.type === 'add' || request.type === 'put'
              ? {
                  ...request,
                  values: request.values.map((row: LocalOrder) => ({ ...row, searchKeys: orderSearchKeys(row.order) })),
                }
              : request,
          ),
      };
    },
  }),
};

/**
 * The local database `versdb` with the four stores of the spec (docs/requirements/sync.md#local-database); version 3
 * adds the orders' search index (docs/decisions.md, "The device's order search"), version 4 an index of the pictures
 * by order and capture date.
 */
export class VersDb extends Dexie {
  defaultOptions!: Table<LocalDefaultOption, [string, Language]>;
  orders!: EntityTable<LocalOrder, 'id'>;
  orderImages!: EntityTable<LocalImage, 'imageId'>;
  /** Order results: the domain's activities, one row each (docs/requirements/sync.md#activity-shape). */
  orderResults!: EntityTable<Activity, 'id'>;

  constructor(name = 'versdb') {
    // Every write transaction completes only once the data is flushed to disk: since Chromium 121 a browser's default
    // is 'relaxed' (complete when the data reached the OS buffer, which a power cut can lose), and nothing a user
    // entered may be lost. Measured in the same page, a strict put costs about what a relaxed one does (bench/).
    super(name, { chromeTransactionDurability: 'strict' });
    // Dexie opens IndexedDB at ten times the declared version: 0.2 is the spec's native version 2.
    this.version(0.2).stores({
      defaultOptions: '[key+lang], lang',
      orders: 'id, sent',
      orderImages: 'imageId, orderId, sent, toBeDeleted',
      orderResults: 'id, orderId, sent, [sent+orderId]',
    });
    // Version 3: the orders' search keys, filled for the rows kept so far.
    this.version(0.3)
      .stores({ orders: 'id, sent, *searchKeys' })
      .upgrade((tx) =>
        tx
          .table<LocalOrder>('orders')
          .toCollection()
          .modify((row) => {
            row.searchKeys = orderSearchKeys(row.order);
          }),
      );
    // Version 4: the pictures by order and capture date, for the list's first screen (picturesFirstScreen): the
    // order of the list is read from the index alone, without reading a row and the file behind its PNG.
    this.version(0.4).stores({ orderImages: 'imageId, orderId, sent, toBeDeleted, [orderId+capturedDate]' });
    this.use(searchKeysOfOrders);
  }
}

export const versdb = new VersDb();
