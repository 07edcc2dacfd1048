import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@vers/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error a handler throws on purpose; it becomes a JSON error body with this status and code. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: string[],
    /** EXPORT_INCOMPLETE: what the document lacks. */
    readonly missing?: string[],
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`);
export const forbidden = (why = 'insufficient rights') => new ApiError(403, 'FORBIDDEN', why);

/** The English messages of the rights table's refusal codes (`ApiRight.refusal`). */
const REFUSAL_MESSAGES: Partial<Record<ErrorCode, string>> = {
  ORDER_WRITE_FORBIDDEN: 'Your roles may read orders at most, not change them',
};

/** The 403 of a route for a user without its roles: the route's own refusal code, or FORBIDDEN. */
export const refused = (code: ErrorCode | undefined) =>
  code ? new ApiError(403, code, REFUSAL_MESSAGES[code] ?? 'insufficient rights') : forbidden();

function send(reply: FastifyReply, body: ErrorBody) {
  return reply.status(body.statusCode).type('application/json').send(body);
}

/** Fastify's own client-error codes and what they mean to our users. */
const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_JSON' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST' },
};

/** PostgreSQL's code (`22021`, ...) of a failed query; the query builder wraps the driver's error as its `cause`. */
function postgresCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Text PostgreSQL cannot store, whichever field it came in: the NUL character (U+0000) in text (22021, "invalid
 * byte sequence") or in jsonb (22P05). JSON allows it anywhere, so every text field of every body can carry it;
 * one rule here instead of one in each schema. The statement fails, so nothing was written.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

/**
 * A unique index that refused a write: two requests raced past the route's own duplicate check (which answers the
 * same code when there is no race), so the second gets the 409 it would have got one moment later.
 */
const UNIQUE_CONFLICTS: Record<string, { code: ErrorCode; message: string }> = {
  users_username_lower: { code: 'USER_EXISTS', message: 'The username is already taken' },
  email_addresses_workshop_address: { code: 'EMAIL_EXISTS', message: 'The address is already on the list' },
};

function uniqueConflict(error: unknown): { code: ErrorCode; message: string } | undefined {
  if (postgresCode(error) !== '23505') return undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') {
      return UNIQUE_CONFLICTS[constraint] ?? { code: 'CONFLICT', message: 'The value is already taken' };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return { code: 'CONFLICT', message: 'The value is already taken' };
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(async (thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let error = thrown;
    // A route that checks its user in its own statement (auth/session.ts, `userInStatement`) may fail before that
    // statement ran: a user who may not call it is told so (401/403) before anything about the request.
    if (request.pendingAuthentication) {
      try {
        await request.pendingAuthentication();
      } catch (refused) {
        error = refused as FastifyError;
      }
    }
    if (error instanceof ApiError) {
      return send(reply, {
        statusCode: error.statusCode,
        code: error.code,
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
        ...(error.missing ? { missing: error.missing } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((issue) => {
        const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return where ? `${error.validationContext}.${where}` : String(error.validationContext);
      });
      const details = error.validation.map((issue, i) => `${fields[i]}: ${issue.message}`).join('; ');
      // A schema rule may name its message key (`CHECK_NUMBER: ...`); the first such key becomes the code.
      const keyed = error.validation
        .map((issue) => /^([A-Z_]+):/.exec(issue.message ?? '')?.[1])
        .find((key): key is ErrorCode => (ERROR_CODES as readonly string[]).includes(key ?? ''));
      const code = keyed ?? 'VALIDATION';
      return send(reply, { statusCode: 400, code, message: `Invalid request: ${details}`, fields });
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return send(reply, { statusCode: known.status, code: known.code, message: error.message });
    if (error instanceof SyntaxError) {
      return send(reply, { statusCode: 400, code: 'INVALID_JSON', message: 'The body is not valid JSON' });
    }
    if (UNSTORABLE_TEXT_CODES.has(postgresCode(error) ?? '')) {
      return send(reply, {
        statusCode: 400,
        code: 'VALIDATION',
        message: 'Text may not contain the NUL character (U+0000)',
      });
    }
    const conflict = uniqueConflict(error);
    if (conflict) return send(reply, { statusCode: 409, ...conflict });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code: ErrorCode = status === 429 ? 'TOO_MANY_ATTEMPTS' : status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
      return send(reply, { statusCode: status, code, message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, { statusCode: 500, code: 'INTERNAL', message: 'Internal server error' });
  });
}

/** What a request that never became one (Node's HTTP parser refused it) is answered with, by Node's error code. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: "The request's address or headers are too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (an address or headers over 16 KiB, a broken
 * request line) gets the same JSON error body as every other refusal, where Fastify's default writes its own shape.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (error.code && CLIENT_ERRORS[error.code]) || { status: 400, message: 'The request is malformed' };
  const body: ErrorBody = { statusCode: known.status, code: 'BAD_REQUEST', message: known.message };
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
