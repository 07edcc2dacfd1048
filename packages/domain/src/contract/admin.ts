import { z } from 'zod';
import { EMAIL_ADDRESSES_MAX, MAX_DB_INTEGER, USERNAME_MIN_LENGTH } from '../constants.ts';
import { LANGUAGES } from '../languages.ts';
import { isStrongPassword } from '../passwords.ts';
import { roleSchema } from './auth.ts';

const id = z.number().int().positive().max(MAX_DB_INTEGER);
/** A serial id in a path or query string (text that must be a number). */
export const idParamSchema = z.coerce.number().int().positive().max(MAX_DB_INTEGER);
const requiredText = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().trim().max(max);

// ---- users (docs/requirements/administration.md#user-calls) ----

/** Roles travel as objects with a name (docs/requirements/administration.md#roles). */
export const roleRefSchema = z.object({ name: roleSchema });

export const userSchema = z.object({
  id,
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  enabled: z.boolean(),
  roles: z.array(roleRefSchema),
  workshopId: id.nullable(),
  /** The keeper a holder user (ROLE_HOLDER) belongs to; null for everybody else. */
  keeperId: id.nullable(),
});
export type User = z.infer<typeof userSchema>;

export const strongPasswordSchema = z
  .string()
  .max(200)
  .refine(isStrongPassword, 'at least 8 characters with a lower-case letter, an upper-case letter and a digit');

export const createUserRequestSchema = z.object({
  username: z.string().trim().min(USERNAME_MIN_LENGTH).max(100),
  firstName: requiredText(100),
  lastName: requiredText(100),
  roles: z.array(roleRefSchema).min(1),
  /** Only system admins choose; a workshop admin's users join the admin's own workshop. */
  workshopId: id.nullable().optional(),
  /**
   * The keeper of a holder user: required with ROLE_HOLDER (400 KEEPER_REQUIRED), refused without it (400
   * KEEPER_NOT_HOLDER), 400 KEEPER_UNKNOWN when there is no such keeper. Only system admins give ROLE_HOLDER.
   */
  keeperId: id.nullable().optional(),
});
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;

export const createUserResponseSchema = z.object({ user: userSchema, password: z.string() });
export type CreateUserResponse = z.infer<typeof createUserResponseSchema>;

export const updateUserRequestSchema = z.object({
  firstName: requiredText(100),
  lastName: requiredText(100),
  roles: z.array(roleRefSchema).min(1),
  enabled: z.boolean(),
  /** As in the creation; omitted: the user keeps their keeper (and a holder must have one). */
  keeperId: id.nullable().optional(),
});
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

export const changeOwnPasswordRequestSchema = z.object({
  oldPassword: z.string().min(1).max(200),
  newPassword: strongPasswordSchema,
});
export type ChangeOwnPasswordRequest = z.infer<typeof changeOwnPasswordRequestSchema>;

export const userIdParamsSchema = z.object({ id: idParamSchema });

// ---- workshops (docs/requirements/administration.md#workshop-calls) ----

export const workshopSchema = z.object({
  id,
  name: z.string(),
  countryCode: z.string(),
  email: z.string(),
  phone: z.string(),
  fax: z.string(),
  revNr: z.string(),
  siteId: z.string(),
  addLastModifier: z.boolean(),
  hasIcon: z.boolean(),
});
export type Workshop = z.infer<typeof workshopSchema>;

/** A workshop in the system admins' list of all workshops (GET workshops): enough to pick one. */
export const workshopSummarySchema = workshopSchema.pick({ id: true, name: true, countryCode: true, siteId: true });
export type WorkshopSummary = z.infer<typeof workshopSummarySchema>;

export const updateWorkshopRequestSchema = z.object({
  name: requiredText(200),
  /** ISO 3166 alpha-2, or empty. */
  countryCode: z
    .string()
    .trim()
    .regex(/^([A-Za-z]{2})?$/)
    .transform((code) => code.toUpperCase()),
  email: z.union([z.literal(''), z.email().max(254)]),
  phone: optionalText(50),
  fax: optionalText(50),
  revNr: optionalText(50),
  siteId: optionalText(50),
  addLastModifier: z.boolean(),
});
export type UpdateWorkshopRequest = z.infer<typeof updateWorkshopRequestSchema>;

/** Largest logo accepted, decoded. */
export const WORKSHOP_ICON_MAX_BYTES = 512 * 1024;
/** Widest and highest logo accepted, in pixels: printed at most 4 cm wide, 2048 px is 1300 dpi. */
export const WORKSHOP_ICON_MAX_PIXELS = 2048;

// ---- notification e-mail addresses (docs/requirements/administration.md#email-calls) ----

export const emailAddressSchema = z.object({ id, address: z.string(), languageCode: z.enum(LANGUAGES) });
export type EmailAddress = z.infer<typeof emailAddressSchema>;

export const emailAddressRequestSchema = z.object({
  address: z.string().trim().pipe(z.email().max(254)),
  languageCode: z.enum(LANGUAGES),
});
export type EmailAddressRequest = z.infer<typeof emailAddressRequestSchema>;

export const EMAIL_ADDRESS_LIMIT = EMAIL_ADDRESSES_MAX;

// ---- notification e-mails sent to those addresses (issue 23) ----

/** An order reached IN_QA; an order was released to service; the weekly digest of the workshop's deadlines. */
export const NOTIFICATION_MAIL_KINDS = ['IN_QA', 'RELEASED', 'DIGEST'] as const;
export const NOTIFICATION_MAIL_STATUSES = ['WAITING', 'SENT', 'FAILED'] as const;
export type NotificationMailStatus = (typeof NOTIFICATION_MAIL_STATUSES)[number];

/** One mail to one address, as the workshop page lists it. */
export const notificationMailSchema = z.object({
  id: z.uuid(),
  kind: z.enum(NOTIFICATION_MAIL_KINDS),
  address: z.string(),
  language: z.string(),
  /** The order's number; null for the digest, or when the order was deleted since. */
  orderNumber: z.string().nullable(),
  status: z.enum(NOTIFICATION_MAIL_STATUSES),
  /** The SMTP server's answer to the last failed attempt. */
  reason: z.string().nullable(),
  attempts: z.number().int(),
  created: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
  /** Whether the mail was written as an .eml file (no SMTP server configured); then it can be downloaded. */
  hasFile: z.boolean(),
});
export type NotificationMail = z.infer<typeof notificationMailSchema>;

/** The newest mails of a workshop, at most this many. */
export const NOTIFICATION_MAILS_LISTED = 100;

// ---- value lists (docs/requirements/administration.md#value-list-calls) ----

export const defaultOptionValueSchema = z.object({
  id,
  value: z.string(),
  text: z.string(),
  global: z.boolean(),
});
export type DefaultOptionValue = z.infer<typeof defaultOptionValueSchema>;

export const defaultOptionSummarySchema = z.object({
  id,
  key: z.string(),
  lang: z.enum(LANGUAGES),
  name: z.string(),
  text: z.string(),
  superstructureType: z.string().nullable(),
  lastModified: z.string(),
  amount: z.number().int(),
});
export type DefaultOptionSummary = z.infer<typeof defaultOptionSummarySchema>;

export const defaultOptionSchema = defaultOptionSummarySchema.extend({ values: z.array(defaultOptionValueSchema) });
export type DefaultOption = z.infer<typeof defaultOptionSchema>;

export const defaultOptionValueRequestSchema = z.object({
  value: requiredText(200),
  text: requiredText(500),
  global: z.boolean().default(false),
});
export type DefaultOptionValueRequest = z.infer<typeof defaultOptionValueRequestSchema>;

export const defaultOptionsQuerySchema = z.object({
  lang: z.enum(LANGUAGES),
  /** ISO time: only lists changed after it. Omitted = everything (the full load at sign-in). */
  after: z.iso.datetime({ offset: true }).optional(),
});
