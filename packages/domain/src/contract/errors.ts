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
  /** DONE and DONE_ARCHIVED are set only by a sign-off (POST orders/{id}/sign-off). */
  'SIGN_OFF_REQUIRED',
  /** A sign-off of an order that is not done and does not become done with it. */
  'NOT_DONE',
  /** A release to service lacks entries; `fields` names them. */
  'RELEASE_INCOMPLETE',
  /** A release to service needs a sign-off "released to service" that the order has not been reopened since. */
  'RELEASE_NOT_SIGNED',
  /** A document cannot be made complete: the order lacks values it needs and the request did not give them. */
  'EXPORT_INCOMPLETE',
  /** A wheelset swap names a position outside 1..8. */
  'WHEELSET_POSITION',
  /** A wheelset swap of a wheelset order: only a wagon has wheelset positions. */
  'WHEELSET_ORDER',
  /** A wheelset swap mounts a wheelset that is mounted at another position of the wagon already. */
  'WHEELSET_MOUNTED_ELSEWHERE',
  /** A sign-off of a wagon that has one wheelset at two positions (`fields` names the later positions' numbers). */
  'WHEELSET_MOUNTED_TWICE',
  /** A wheelset swap turns a position that holds no wheelset. */
  'WHEELSET_NOT_MOUNTED',
  /** A keeper names a VKM that belongs to another keeper already (`fields` names it). */
  'KEEPER_MARKING_TAKEN',
  /** A keeper that users belong to is not deleted. */
  'KEEPER_IN_USE',
  /** A user's keeper does not exist (any more). */
  'KEEPER_UNKNOWN',
  /** A holder user (ROLE_HOLDER) needs the keeper they belong to. */
  'KEEPER_REQUIRED',
  /** Only a holder user belongs to a keeper. */
  'KEEPER_NOT_HOLDER',
  /** A holder user has the holder role alone and no workshop. */
  'HOLDER_ROLE_ALONE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** For validation errors: the JSON paths of the offending fields, e.g. `body.userName`. */
  fields: z.array(z.string()).optional(),
  /** For EXPORT_INCOMPLETE: the values the document needs and neither the order nor the request gave. */
  missing: z.array(z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
