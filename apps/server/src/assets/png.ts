import { pngProblem } from '@vers/domain';
import { ApiError } from '../http/errors.ts';

/**
 * The one place the server applies the PNG rule (docs/requirements/validation.md#png-only), for pictures and the
 * workshop logo alike: the content decides, not the name. `what` starts the message, e.g. "The picture".
 */
export function requirePng(bytes: Uint8Array, what: string): void {
  if (bytes.length === 0) throw new ApiError(400, 'NOT_PNG', `${what} is an empty file, not a PNG image`);
  const problem = pngProblem(bytes);
  if (problem === 'truncated') throw new ApiError(400, 'NOT_PNG', `${what} is a truncated PNG image`);
  if (problem === 'notPng') throw new ApiError(400, 'NOT_PNG', `${what} is not a PNG image`);
}
