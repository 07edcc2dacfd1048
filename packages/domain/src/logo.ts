import { WORKSHOP_ICON_MAX_BYTES, WORKSHOP_ICON_MAX_PIXELS } from './contract/admin.ts';
import { type PngProblem, pngProblem, pngSize } from './png.ts';

export type LogoProblem = PngProblem | 'tooLarge' | 'tooManyPixels';

/**
 * What is wrong with a file as a workshop logo, or null: the browser asks before it uploads, the server before it
 * stores. At most WORKSHOP_ICON_MAX_BYTES, a complete PNG, and at most WORKSHOP_ICON_MAX_PIXELS each way (read
 * from the header: every PDF embeds the logo and would decode all of a huge one).
 */
export function logoProblem(bytes: Uint8Array): LogoProblem | null {
  if (bytes.length > WORKSHOP_ICON_MAX_BYTES) return 'tooLarge';
  const problem = pngProblem(bytes);
  if (problem) return problem;
  const size = pngSize(bytes);
  if (!size || size.width > WORKSHOP_ICON_MAX_PIXELS || size.height > WORKSHOP_ICON_MAX_PIXELS) return 'tooManyPixels';
  return null;
}
