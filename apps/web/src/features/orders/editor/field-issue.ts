import type { WriteIssue } from '@vers/domain';

/** The message key of an issue; where a write could not go at all (never from an input on screen), one for all. */
export const issueMessage = (issue: WriteIssue) =>
  issue.code === 'ENTRY_DELETE_ONLY' || issue.code === 'NOT_ON_THIS_SIDE' ? 'UNKNOWN_FIELD' : issue.code;

/** The numbers and choices an issue's message names. */
export const issueValues = (issue: WriteIssue): Record<string, string | number> =>
  'choices' in issue
    ? { choices: issue.choices.join(', ') }
    : 'max' in issue
      ? { max: issue.max, ...('min' in issue ? { min: issue.min } : {}) }
      : {};
