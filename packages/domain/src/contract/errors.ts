import { z } from 'zod';

/**
 * Stable error codes of every API error body. The server's `message` is English for logs and API users;
 * the browser shows the translated text of `code` (catalogue key `errors.<code>`).
 */
export const ERROR_CODES = [
  'INVALID_JSON',
  'VALIDATION',
  'BAD_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NOT_FOUND',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'WRONG_LOGIN',
  'TOO_MANY_ATTEMPTS',
  'CONFLICT',
  'USER_EXISTS',
  'EMAIL_EXISTS',
  'EMAIL_LIMIT_MAX',
  'EMAIL_LIMIT_MIN',
  'LAST_ADMIN',
  'SELF_CHANGE',
  'ROLE_NOT_ALLOWED',
  'WRONG_PASSWORD',
  'NOT_PNG',
  'IMAGE_TOO_LARGE',
  'LAST_VALUE',
  'CHECK_NUMBER',
  'ORDER_READ_ONLY',
  /** The caller's roles may read orders at most, not change them (rights.ts, `mayWriteOrders`). */
  'ORDER_WRITE_FORBIDDEN',
  'INCOMPATIBLE_TYPE',
  /** The same activity id came again with other content. */
  'ACTIVITY_ID_REUSED',
  /** A revert named a counter that now holds another change than the one meant. */
  'REVERT_TARGET_MOVED',
  /** The thing was deleted on purpose (a tombstone says so), not lost. */
  'DELETED',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** For validation errors: the JSON paths of the offending fields, e.g. `body.userName`. */
  fields: z.array(z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
