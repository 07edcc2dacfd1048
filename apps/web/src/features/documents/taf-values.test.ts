import { TAF_VALUE_KEYS, type TafValueKey, exportRequestSchema } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { isAdministrative, shownTafFields, tafProblem, tafValues } from './taf-values.ts';

const asked = (...keys: TafValueKey[]) => new Set<TafValueKey>(keys);

describe('the TAF TSI values of the export dialog', () => {
  it('shows what was asked, in schema order, and a suspension date only while the suspension says yes', () => {
    const keys = asked('GCUWagon', 'RegistrationCountry', 'SuspensionOfAuthorisation', 'MaxGrossWeight');
    expect(shownTafFields(keys, {})).toEqual([
      'RegistrationCountry',
      'SuspensionOfAuthorisation',
      'GCUWagon',
      'MaxGrossWeight',
    ]);
    expect(shownTafFields(keys, { SuspensionOfAuthorisation: 'true' })).toEqual([
      'RegistrationCountry',
      'SuspensionOfAuthorisation',
      'DateSuspensionOfAuthorisation',
      'GCUWagon',
      'MaxGrossWeight',
    ]);
    // The server asked for the date (the suspension was sent as yes); changed to no here, the date is not needed.
    const both = asked('SuspensionOfAuthorisation', 'DateSuspensionOfAuthorisation');
    expect(shownTafFields(both, { SuspensionOfAuthorisation: 'false' })).toEqual(['SuspensionOfAuthorisation']);
    // Asked for alone (its yes/no was given before): shown.
    expect(shownTafFields(asked('DateECMCertificateSuspended'), {})).toEqual(['DateECMCertificateSuspended']);
    expect(TAF_VALUE_KEYS.filter(isAdministrative).at(-1)).toBe('GCUWagon');
  });

  it.each([
    ['RegistrationCountry', '', 'documents.taf.required'],
    ['RegistrationCountry', 'DEU', 'documents.taf.hint.country'],
    ['RegistrationCountry', 'd1', 'documents.taf.hint.country'],
    ['WagonNumberOfAxles', '1', 'documents.taf.hint.integer'],
    ['WagonNumberOfAxles', '4,5', 'documents.taf.hint.integer'],
    ['WagonNumberOfAxles', 'vier', 'documents.taf.hint.integer'],
    ['MaxAxleWeight', '22,55', 'documents.taf.hint.decimal'],
    ['MaxAxleWeight', '100', 'documents.taf.hint.decimal'],
    ['MaxAxleWeight', '0', 'documents.taf.hint.decimal'],
    ['ECMCertificateNumber', 'DE-31-0214-0003', 'documents.taf.hint.ein'],
    ['ECMCertificateNumber', 'DE/00/0214/0003', 'documents.taf.hint.ein'],
    ['KeeperShortNameVKM', 'TOO-LONG-MARKING', 'documents.taf.hint.text'],
    ['DatePutIntoService', '2009-02-30', 'documents.taf.invalid'],
    ['GCUWagon', 'maybe', 'documents.taf.invalid'],
    ['AirBrakeType', '4', 'documents.taf.invalid'],
  ] as const)('refuses %s "%s" before sending (%s)', (key, text, message) => {
    expect(tafProblem(key, text, 'de')?.key).toBe(message);
  });

  it('names the range in the language of the screen', () => {
    expect(tafProblem('MaxAxleWeight', '120', 'de')?.values).toEqual({ range: '0,1–99,9' });
    expect(tafProblem('MaxAxleWeight', '120', 'en')?.values).toEqual({ range: '0.1–99.9' });
  });

  it('turns the texts into the values POST export takes, and the server schema takes them', () => {
    const shown: TafValueKey[] = [
      'RegistrationCountry',
      'SuspensionOfAuthorisation',
      'ECMCertificateNumber',
      'WagonNumberOfAxles',
      'MaxAxleWeight',
      'AirBrakeType',
      'DateLastOverhaul',
    ];
    const result = tafValues(
      shown,
      {
        RegistrationCountry: 'at',
        SuspensionOfAuthorisation: 'false',
        ECMCertificateNumber: ' AT/31/0719/0012 ',
        WagonNumberOfAxles: ' 4 ',
        MaxAxleWeight: '22,5',
        AirBrakeType: '3',
        DateLastOverhaul: '2025-05-28',
        // Not shown: not sent.
        GCUWagon: 'true',
      },
      'de',
    );
    expect(result).toEqual({
      ok: true,
      values: {
        RegistrationCountry: 'AT',
        SuspensionOfAuthorisation: false,
        ECMCertificateNumber: 'AT/31/0719/0012',
        WagonNumberOfAxles: 4,
        MaxAxleWeight: '22.5',
        AirBrakeType: '3',
        DateLastOverhaul: '2025-05-28',
      },
    });
    if (!result.ok) return;
    expect(exportRequestSchema.safeParse({ types: ['XML_TAF_TSI'], tafTsi: result.values }).success).toBe(true);
  });

  it('sends nothing while a shown field is empty or wrong, and says which', () => {
    const result = tafValues(['RegistrationCountry', 'GCUWagon', 'MinCurveRadius'], { MinCurveRadius: '1000' }, 'en');
    expect(result).toEqual({
      ok: false,
      problems: {
        RegistrationCountry: { key: 'documents.taf.required' },
        GCUWagon: { key: 'documents.taf.required' },
        MinCurveRadius: { key: 'documents.taf.hint.integer', values: { range: '1–999' } },
      },
    });
  });
});
