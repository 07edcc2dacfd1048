import type { TafValues } from '@vers/domain';

/**
 * Every value POST export's `tafTsi` can give (docs/taf-tsi.md), as a keeper would give them for a four-axle bogie
 * tank wagon, nothing suspended: with these, a TAF TSI export of any wagon order is complete.
 */
export const COMPLETE_TAF_VALUES = {
  RegistrationCountry: 'DE',
  DatePutIntoService: '2009-03-17',
  SuspensionOfAuthorisation: false,
  KeeperShortNameVKM: 'D-GATX',
  ECM: 'GATX Rail Germany GmbH',
  ECMCertificateNumber: 'DE/31/0214/0003',
  ECMCertificateValidFrom: '2024-01-01',
  ECMCertificateValidTo: '2028-12-31',
  CoversTankWagonsForDangerousGoods: true,
  CoversNonTankWagonsForDangerousGoods: false,
  ECMCertificateSuspended: false,
  InteropCapability: '8',
  GCUWagon: true,
  LetterMarking: 'Zacns',
  WagonNumberOfAxles: 4,
  InnerWheelbase: 12470,
  MinCurveRadius: 35,
  WagonWeightEmpty: 24800,
  LengthOverBuffers: 1994,
  MaxAxleWeight: '22.5',
  MaxDesignSpeed: 120,
  NumberOfBrakes: 1,
  AirBrakeType: '3',
  BrakingPowerVariationDevice: '1',
  AirBrakedMass: 28,
  BrakeSpecialCharacteristics: '6',
  HandBrakeType: '2',
  MaxGrossWeight: 90000,
  DateLastOverhaul: '2025-05-28',
  OverhaulValidityPeriod: 6,
  PermittedTolerance: 3,
} as const satisfies TafValues;
