import { LANGUAGES, NOTIFICATION_MAIL_KINDS, NOTIFICATION_MAIL_STATUSES } from '@vers/domain';
import { describe, expect, it } from 'vitest';

type Catalogue = { workshop: { mails: { kind: Record<string, string>; status: Record<string, string> } } };
const catalogues = import.meta.glob<Catalogue>('./locales/*.json', { eager: true, import: 'default' });

// The Sent e-mails list names each mail's kind and status by a key built from the value: check:i18n compares the
// catalogues with each other, this that every value of the contract has its text.
describe('Sent e-mails texts', () => {
  it.each(LANGUAGES)('names every mail kind and status in %s', (language) => {
    const { kind, status } = catalogues[`./locales/${language}.json`]!.workshop.mails;
    expect(Object.keys(kind).sort()).toEqual([...NOTIFICATION_MAIL_KINDS].sort());
    expect(Object.keys(status).sort()).toEqual([...NOTIFICATION_MAIL_STATUSES].sort());
  });
});
