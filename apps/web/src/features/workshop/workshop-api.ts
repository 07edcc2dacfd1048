import {
  type AuditEntry,
  type EmailAddress,
  type EmailAddressRequest,
  type NotificationMail,
  type UpdateWorkshopRequest,
  type Workshop,
  auditEntrySchema,
  emailAddressSchema,
  notificationMailSchema,
  workshopSchema,
} from '@vers/domain';
import { z } from 'zod';
import { ApiFailure, call } from '../../app/api.ts';

/**
 * The statuses this screen answers with its own message (docs/requirements/administration.md#error-catalogue: errors
 * that name the workshop action or the address). No connection, 401, 403 and 502 keep the app's global reaction.
 */
const OWN = [400, 404, 409, 413, 500] as const;

/** True when the failure was left to this screen, so it shows its own message (no double notification). */
export function handledHere(error: unknown): boolean {
  if (!(error instanceof ApiFailure)) return true;
  return error.code === 'BAD_RESPONSE' || (OWN as readonly number[]).includes(error.status);
}

/** The server's error code when it refused with `status`, else null. */
export function refusal(error: unknown, status: number): ApiFailure | null {
  return error instanceof ApiFailure && error.status === status ? error : null;
}

/** Reading the workshop also says a refusal (403) itself: the page shows the rights message instead of a snackbar. */
export const fetchWorkshop = (id: number): Promise<Workshop> =>
  call(`workshops/${id}`, workshopSchema, { handles: [...OWN, 403] });

export const updateWorkshop = (id: number, request: UpdateWorkshopRequest): Promise<Workshop> =>
  call(`workshops/${id}`, workshopSchema, { method: 'PUT', body: request, handles: OWN });

const base64 = z.string().trim().min(1);

/** The logo as base64 PNG, or null when the workshop has none (404). */
export async function fetchIcon(id: number): Promise<string | null> {
  try {
    return await call(`workshops/${id}/icon`, base64, { textResponse: true, handles: OWN });
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404) return null;
    throw error;
  }
}

/**
 * PUT workshops/{id}/icon: the base64 data as plain text, without a data-URL prefix
 * (docs/requirements/administration.md#workshop-calls).
 */
export const uploadIcon = (id: number, data: string): Promise<Workshop> =>
  call(`workshops/${id}/icon`, workshopSchema, { method: 'PUT', text: data, handles: OWN });

// The e-mail calls name the workshop, so that a system admin acts on the workshop of the page.
export const fetchEmailAddresses = (workshopId: number): Promise<EmailAddress[]> =>
  call(`emailAddress?workshopId=${workshopId}`, z.array(emailAddressSchema), { handles: OWN });

export const createEmailAddress = (workshopId: number, request: EmailAddressRequest): Promise<EmailAddress> =>
  call(`emailAddress?workshopId=${workshopId}`, emailAddressSchema, { method: 'POST', body: request, handles: OWN });

export const updateEmailAddress = (id: number, request: EmailAddressRequest): Promise<EmailAddress> =>
  call(`emailAddress/${id}`, emailAddressSchema, { method: 'PUT', body: request, handles: OWN });

export const deleteEmailAddress = (id: number): Promise<void> =>
  call(`emailAddress/${id}`, null, { method: 'DELETE', handles: OWN });

/** A page of the workshop's audit trail, newest first; `before` pages to older entries. */
export const fetchAuditTrail = (workshopId: number, before?: number): Promise<AuditEntry[]> =>
  call(`audit?workshopId=${workshopId}${before ? `&before=${before}` : ''}`, z.array(auditEntrySchema), {
    handles: OWN,
  });

/** The workshop's newest notification e-mails and what became of them (issue 23). */
export const fetchNotificationMails = (workshopId: number): Promise<NotificationMail[]> =>
  call(`notificationMails?workshopId=${workshopId}`, z.array(notificationMailSchema), { handles: OWN });
