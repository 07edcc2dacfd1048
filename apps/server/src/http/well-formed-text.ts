import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

/** A UTF-16 surrogate without its partner: `u` mode reads a well-formed pair as one code point, so only lone ones match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The paths (`body.lastName`, `query.search`) of strings in `value` that hold a lone surrogate. */
function malformedPaths(value: unknown, path: string, found: string[]): string[] {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => malformedPaths(item, `${path}.${i}`, found));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) found.push(path);
      malformedPaths(item, `${path}.${key}`, found);
    }
  }
  return found;
}

/**
 * Text that is not Unicode is refused with 400 before any route sees it: JSON may spell a lone surrogate
 * (`"\ud800"`), which PostgreSQL would store as U+FFFD, silently changing what the user sent. One rule for every
 * text field of every call, as the NUL character has in the error handler.
 */
export function refuseMalformedText(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const fields = [
      ...malformedPaths(request.body, 'body', []),
      ...malformedPaths(request.query, 'query', []),
      ...malformedPaths(request.params, 'params', []),
    ];
    if (fields.length > 0) {
      throw new ApiError(
        400,
        'VALIDATION',
        'Text may not contain a lone UTF-16 surrogate (not a Unicode character)',
        fields,
      );
    }
  });
}
