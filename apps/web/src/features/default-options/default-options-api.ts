import {
  type DefaultOptionValueRequest,
  type Language,
  defaultOptionSchema,
  defaultOptionSummarySchema,
  defaultOptionValueSchema,
} from '@vers/domain';
import { z } from 'zod';
import { call } from '../../app/api.ts';

export const fetchSummaries = (lang: Language) =>
  call(`default-options?lang=${lang}`, z.array(defaultOptionSummarySchema));

/** A list that does not exist (404) is said by the page itself, not by a snackbar. */
export const fetchList = (id: number) => call(`default-options/${id}`, defaultOptionSchema, { handles: [404] });

// Saving handles its failures itself: one message for the whole save
// (docs/requirements/administration.md#error-catalogue).
const quiet = { handles: [400, 403, 404, 409, 413, 500, 502] } as const;

export const addValue = (listId: number, body: DefaultOptionValueRequest) =>
  call(`default-options/${listId}`, z.object({ id: z.number() }), { method: 'POST', body, ...quiet });

export const updateValue = (listId: number, valueId: number, body: DefaultOptionValueRequest) =>
  call(`default-options/${listId}/${valueId}`, defaultOptionValueSchema, {
    method: 'PUT',
    body: { id: valueId, ...body },
    ...quiet,
  });

export const deleteValue = (listId: number, valueId: number) =>
  call(`default-options/${listId}/${valueId}`, null, { method: 'DELETE', ...quiet });
