import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const lastModified = () => timestamp('last_modified', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
/** The writing transaction's id (`xid8`), as a bigint: a 64-bit id need not fit a JavaScript number. */
const changedTx = () =>
  bigint('changed_tx', { mode: 'bigint' })
    .notNull()
    .default(sql`(pg_current_xact_id()::text::bigint)`);

export const workshops = pgTable('workshops', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  countryCode: text('country_code').notNull().default(''),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  fax: text('fax').notNull().default(''),
  revNr: text('rev_nr').notNull().default(''),
  siteId: text('site_id').notNull().default(''),
  /** PNG as base64 without a data-URL prefix. */
  icon: text('icon'),
  addLastModifier: boolean('add_last_modifier').notNull().default(false),
  lastModified: lastModified(),
});

/**
 * Keepers (issue 22): companies that keep wagons, each with one or more Vehicle Keeper Markings (`keeper_markings`).
 * A holder user (ROLE_HOLDER) belongs to one and reads the wagon orders whose keeper marking names one of its VKMs.
 */
export const keepers = pgTable('keepers', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  lastModified: lastModified(),
});

/**
 * A keeper's VKMs (`keeperMarkingVkm`, packages/domain): the primary key makes a VKM one keeper's at most, so that two
 * keepers claiming it at once are decided by the database (the second gets 409 KEEPER_MARKING_TAKEN).
 */
export const keeperMarkings = pgTable(
  'keeper_markings',
  {
    vkm: text('vkm').primaryKey(),
    keeperId: integer('keeper_id')
      .notNull()
      .references(() => keepers.id, { onDelete: 'cascade' }),
  },
  (t) => [index('keeper_markings_keeper').on(t.keeperId)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    workshopId: integer('workshop_id').references(() => workshops.id, { onDelete: 'restrict' }),
    /** The keeper a holder user belongs to; null for everybody else. A keeper with users is not deleted (409). */
    keeperId: integer('keeper_id').references(() => keepers.id, { onDelete: 'restrict' }),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Raised on a password change and when the user is disabled, so that tokens issued before stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    lastModified: lastModified(),
  },
  (t) => [uniqueIndex('users_username_lower').on(sql`lower(${t.username})`)],
);

export const emailAddresses = pgTable(
  'email_addresses',
  {
    id: serial('id').primaryKey(),
    workshopId: integer('workshop_id')
      .notNull()
      .references(() => workshops.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    languageCode: text('language_code').notNull(),
  },
  (t) => [uniqueIndex('email_addresses_workshop_address').on(t.workshopId, sql`lower(${t.address})`)],
);

/**
 * Tokens ended before their time by signing out, by id (the token's `jti`), kept until they would have expired
 * anyway. A per-token list rather than a per-user time, so that signing out on one tablet leaves the same user's
 * other devices signed in.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    tokenId: uuid('token_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('revoked_tokens_expires').on(t.expiresAt)],
);

/**
 * Failed sign-ins (and wrong old passwords), each written before its password is checked: the row is the reserved
 * attempt, deleted again when the password was right (auth/throttle.ts). `device` is the hash of the trusted device
 * it came from, or null from anywhere else.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    address: text('address').notNull(),
    device: text('device'),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_user_address').on(t.username, t.address, t.attemptedAt),
    index('login_attempts_address').on(t.address, t.attemptedAt),
    index('login_attempts_user_device').on(t.username, t.device, t.attemptedAt),
  ],
);

/**
 * Devices a user has signed in on before (OWASP's device cookie): the SHA-256 of the random id in the device's
 * `vers_device` cookie. Failures from elsewhere never throttle a user on such a device.
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    username: text('username').notNull(),
    deviceHash: text('device_hash').notNull(),
    lastUsed: timestamp('last_used', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.username, t.deviceHash] })],
);

export const featureToggles = pgTable('feature_toggles', {
  name: text('name').primaryKey(),
  enabled: boolean('enabled').notNull(),
});

export const defaultOptions = pgTable(
  'default_options',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    lang: text('lang').notNull(),
    name: text('name').notNull(),
    text: text('text').notNull(),
    /** Superstructure type the list belongs to, for the value-list filter; null = all. */
    superstructureType: text('superstructure_type'),
    lastModified: lastModified(),
  },
  (t) => [uniqueIndex('default_options_key_lang').on(t.key, t.lang)],
);

export const defaultOptionValues = pgTable(
  'default_option_values',
  {
    id: serial('id').primaryKey(),
    optionId: integer('option_id')
      .notNull()
      .references(() => defaultOptions.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    text: text('text').notNull(),
    global: boolean('global').notNull().default(false),
  },
  (t) => [uniqueIndex('default_option_values_option_value').on(t.optionId, t.value)],
);

export const orders = pgTable(
  'orders',
  {
    /** Made by the browser, so that an order created offline keeps its id when it reaches the server. */
    id: uuid('id').primaryKey(),
    workshopId: integer('workshop_id')
      .notNull()
      .references(() => workshops.id, { onDelete: 'restrict' }),
    type: text('type').notNull(),
    /** The workshop's readable order number, e.g. 2026-000042. */
    number: text('number').notNull(),
    externalOrderNumber: text('external_order_number').notNull().default(''),
    /** The wagon or wheelset number (12 digits). */
    maintenanceNumber: text('maintenance_number').notNull(),
    contractor: text('contractor').notNull().default(''),
    status: text('status').notNull().default('CREATED'),
    assetId: text('asset_id'),
    importedDate: timestamp('imported_date', { withTimezone: true, mode: 'date' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The order's own activity counter: raised in the transaction that appends, so counters are dense. */
    lastCounter: integer('last_counter').notNull().default(0),
    lastModified: lastModified(),
    /**
     * The transaction that last changed what the list shows of the row (`pg_current_xact_id()`, set by a trigger; an
     * edit's counter and time do not count): a device's order list asks for what changed since a cursor
     * (src/orders/list.ts).
     */
    changedTx: changedTx(),
    /**
     * The VKM the order's current keeper marking names (`keeperMarkingVkm` of `Halterkurzkennzeichen`, outgoing, else
     * incoming), written in the transaction of every change of it (orders/keeper-vkm.ts); null for a wheelset order
     * or a wagon without a readable marking. The holder's list is one indexed query on it.
     */
    keeperVkm: text('keeper_vkm'),
    /** The keeper marking as entered, beside its VKM (written with it), for the holder's list. */
    keeperMarking: text('keeper_marking'),
  },
  (t) => [
    index('orders_workshop').on(t.workshopId),
    index('orders_keeper_created').on(t.keeperVkm, t.created, t.id),
    uniqueIndex('orders_workshop_number').on(t.workshopId, t.number),
    index('orders_workshop_changed').on(t.workshopId, t.changedTx, t.id),
    index('orders_workshop_created').on(t.workshopId, t.created, t.id),
  ],
);

/**
 * Orders whose `keeper_vkm` is still to be derived from their activities: filled by the migration that added the
 * column (0014), emptied at start-up (orders/keeper-vkm.ts, `backfillKeeperVkm`), since the rule lives in TypeScript.
 */
export const keeperVkmBackfill = pgTable('keeper_vkm_backfill', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
});

/**
 * The numbers the order search finds an order by (docs/requirements/orders.md#order-list-at-scale), as the search
 * compares them (lower case, no spaces or hyphens): `ORDER` its wagon or wheelset number and its order number,
 * `WHEELSET` every wheelset number ever recorded in it (a wagon is found by a wheelset it carried). Filled by triggers
 * (migration 0012), and searched through a trigram index there: kept apart from `orders`, whose row every push
 * updates, so that a push does not touch a trigram index.
 */
export const orderSearchNumbers = pgTable(
  'order_search_numbers',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    number: text('number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.kind, t.number] })],
);

export const activities = pgTable(
  'activities',
  {
    /** Made by the browser when the change was made: a repeated push is recognised by it. */
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    counter: integer('counter').notNull(),
    key: text('key').notNull(),
    type: text('type').notNull(),
    outputValue: text('output_value').notNull(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull(),
    lastModified: timestamp('last_modified', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    modifier: text('modifier').notNull().default(''),
    reverted: boolean('reverted').notNull().default(false),
    /** Set on an activity the server appended to carry out a revert: the counter of the reverted one. */
    restores: integer('restores'),
    /**
     * What the author had seen of the field when the edit began (the counter of the value shown); null when the
     * client did not say. The domain's conflict rule reads it (packages/domain/src/orders/conflicts.ts).
     */
    seen: integer('seen'),
    /** The browser the change was made in; null for changes the server made itself. */
    device: uuid('device'),
    /** Who sent the change, and their name at that time (shown beside a conflict and in the history). */
    // No foreign key: the name beside it keeps the history readable after the user is deleted.
    authorId: integer('author_id'),
    author: text('author').notNull().default(''),
  },
  (t) => [uniqueIndex('activities_order_counter').on(t.orderId, t.counter)],
);

/**
 * The database's identity and generation (docs/requirements/sync.md#data-flow-restored-server): one row, made by the
 * migration that creates it. A restored backup brings back an older row; the generation is raised when a client shows
 * the server lacks what it had acknowledged, so every device re-sends what the server lost.
 */
export const serverIdentity = pgTable('server_identity', {
  singleton: boolean('singleton').primaryKey().default(true),
  id: uuid('id').notNull(),
  generation: integer('generation').notNull(),
});

/**
 * What was deleted on purpose, kept so that a device can tell a deletion (drop its copy) from a server that lost
 * the thing (send it again): orders, and pictures of orders that still exist.
 */
export const tombstones = pgTable(
  'tombstones',
  {
    id: uuid('id').primaryKey(),
    /** `ORDER` or `ASSET`. */
    kind: text('kind').notNull(),
    workshopId: integer('workshop_id')
      .notNull()
      .references(() => workshops.id, { onDelete: 'cascade' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The deleting transaction: a device's order list gets the deletions since its cursor. */
    changedTx: changedTx(),
  },
  (t) => [
    index('tombstones_workshop_deleted').on(t.workshopId, t.deletedAt),
    index('tombstones_workshop_changed').on(t.workshopId, t.changedTx),
  ],
);

/** Per workshop and year, the last order number handed out. */
export const orderNumbers = pgTable(
  'order_numbers',
  {
    workshopId: integer('workshop_id')
      .notNull()
      .references(() => workshops.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [uniqueIndex('order_numbers_workshop_year').on(t.workshopId, t.year)],
);

/**
 * Files of a workshop (docs/requirements/orders.md#order-assets): pictures of an order and imported templates. The
 * content sits behind the asset storage (src/assets/storage.ts), in `asset_contents` by default.
 */
export const assets = pgTable(
  'assets',
  {
    /** Made by the browser, so that a retried upload stores nothing twice. */
    id: uuid('id').primaryKey(),
    /** The order a picture belongs to; null for imports. Its pictures go with a deleted order. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    workshopId: integer('workshop_id')
      .notNull()
      .references(() => workshops.id, { onDelete: 'restrict' }),
    type: text('type').notNull(),
    status: text('status').notNull(),
    filename: text('filename').notNull(),
    /** Bytes of the content. */
    size: integer('size').notNull(),
    mime: text('mime').notNull(),
    /** Who took it, as shown beside it. */
    creator: text('creator').notNull(),
    /** When it was taken, which may be long before the upload. */
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The import validation's state and result (imports/validation.ts); null for other files. */
    validation: jsonb('validation'),
    /** What a document's generation job needs (documents/generate.ts); null for other files. */
    request: jsonb('request'),
  },
  (t) => [index('assets_order').on(t.orderId, t.created), index('assets_workshop').on(t.workshopId)],
);

/** PostgreSQL's binary type; PGlite reads it as Uint8Array, `pg` as Buffer (a Uint8Array too). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** The content of an asset, for the PostgreSQL asset storage. */
export const assetContents = pgTable('asset_contents', {
  assetId: uuid('asset_id')
    .primaryKey()
    .references(() => assets.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
});

/**
 * A picture's small rendition for lists (a JPEG, or a PNG, of at most 512 px a side): sent with the picture by the
 * browser, or made by the server the first time it is asked for (src/assets/thumbnail.ts).
 */
export const assetThumbnails = pgTable('asset_thumbnails', {
  assetId: uuid('asset_id')
    .primaryKey()
    .references(() => assets.id, { onDelete: 'cascade' }),
  mime: text('mime').notNull(),
  bytes: bytea('bytes').notNull(),
});

/**
 * Who changed what in the administration, and every failed or throttled sign-in: when, from where, by whom, about
 * which workshop (null: none, e.g. a value list or an unknown username). Append-only: a trigger refuses UPDATE,
 * DELETE and TRUNCATE (migration 0010). No foreign keys, so an entry outlives the user or workshop it names. Never a
 * password: `details` holds only what changed of roles, state and names (docs/security.md#audit-trail).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorId: integer('actor_id'),
    actor: text('actor').notNull(),
    workshopId: integer('workshop_id'),
    action: text('action').notNull(),
    target: text('target').notNull().default(''),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    address: text('address').notNull().default(''),
  },
  (t) => [index('audit_log_workshop').on(t.workshopId, t.id)],
);

/**
 * Electronic sign-offs of orders (issue 21, docs/decisions.md): append-only. A trigger (migration 0013) refuses every
 * delete and every update but the one that marks a sign-off superseded when its order is reopened. No foreign key to
 * the order: a sign-off outlives its order, and its check then says the order is gone.
 */
export const orderSignOffs = pgTable(
  'order_sign_offs',
  {
    /** Made by the browser: a resent sign-off finds the first. */
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id').notNull(),
    workshopId: integer('workshop_id').notNull(),
    /** The check code printed on the release to service (unique, 80 random bits). */
    code: text('code').notNull(),
    signerId: integer('signer_id').notNull(),
    /** The signer's name and roles as they were when signing (a user may be renamed or deleted later). */
    signer: text('signer').notNull(),
    role: text('role').notNull(),
    meaning: text('meaning').notNull(),
    status: text('status'),
    signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    contentHash: text('content_hash').notNull(),
    /** The signed content itself (`signedContent`), so that a check can say what changed since. */
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    supersededAt: timestamp('superseded_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('order_sign_offs_code').on(t.code), index('order_sign_offs_order').on(t.orderId, t.signedAt)],
);

/**
 * Notification e-mails (issue 23): one row per event and address, written in the transaction of the event itself
 * (the outbox), so an event that commits always has its mails and a rolled-back one has none. The unique event key
 * per address is what makes a retried event or job never mail twice; the delivery job (mail/deliver.ts) records
 * here what became of each mail. Address and language are kept as they were when the event happened.
 */
export const notificationMails = pgTable(
  'notification_mails',
  {
    id: uuid('id').primaryKey(),
    workshopId: integer('workshop_id')
      .notNull()
      .references(() => workshops.id, { onDelete: 'cascade' }),
    /** What happened, once per event: `in-qa:<activity id>`, `released:<sign-off id>`, `digest:<workshop>:<week>`. */
    eventKey: text('event_key').notNull(),
    /** IN_QA, RELEASED or DIGEST. */
    kind: text('kind').notNull(),
    /** The order the mail is about; the mail stays listed when the order is deleted. */
    orderId: uuid('order_id'),
    address: text('address').notNull(),
    language: text('language').notNull(),
    /** WAITING, SENT or FAILED. */
    status: text('status').notNull().default('WAITING'),
    /** Why the last attempt failed (the SMTP server's answer); null while none did. */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * While an attempt is under way: until when it holds the mail (its job's expiry). Another run of the mail's job
     * before then leaves it alone, so a mail is never sent by two runs at once; a dead attempt's hold runs out.
     */
    heldUntil: timestamp('held_until', { withTimezone: true, mode: 'date' }),
    /** Deterministic (`<id>@vers`): a mail sent again after a crash carries the same Message-ID. */
    messageId: text('message_id').notNull(),
    /** The .eml file in `<data folder>/outbox/` when no SMTP server is configured. */
    file: text('file'),
    /** The address the event's request came to, for the check link of an attached release to service. */
    origin: text('origin'),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('notification_mails_event_address').on(t.eventKey, sql`lower(${t.address})`),
    index('notification_mails_workshop').on(t.workshopId, t.created),
  ],
);
