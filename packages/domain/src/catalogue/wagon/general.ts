import type { CollectionDef, TabDef } from '../model.ts';
import { measure, measureIn } from '../fields.ts';

/**
 * The wagon tabs labeling, revisionDeadline and mobileService (docs/requirements/orders.md#wagon-tabs,
 * docs/requirements/orders.md#wagon-data). Paths are relative to `technicalWaggon{Incoming|Outgoing}`; each tab keeps
 * its fields below one object (`Labeling`, `Revision`, `MobileService`). See docs/field-catalogue/wagon-general.md for
 * the choices made where the spec is silent.
 */

const metres = measureIn('m');
const months = measure('months', 0);

/** Only bogie wagons have bogie centres (as in basedata: more than two axles means bogies). */
const bogieWagon = { field: 'AnzahlAchsen', op: 'moreThan', value: 2 } as const;

/** The markings a wagon carries (EN 15877-1, GCU appendix 11), as found on arrival and as left. */
export const labelingTab: TabDef = {
  id: 'labeling',
  chapters: [
    {
      id: 'labelingMarks',
      fields: [
        { path: 'Labeling.Gattungszeichen', kind: 'string' },
        { path: 'Labeling.RIVKennzeichnung', kind: 'boolean' },
        { path: 'Labeling.TENKennzeichnung', kind: 'boolean' },
        { path: 'Labeling.GEKennzeichnung', kind: 'boolean' },
        { path: 'Labeling.Begrenzungsprofil', kind: 'option', list: 'ListBegrenzungsprofil', extraEntries: true },
        {
          path: 'Labeling.Hoechstgeschwindigkeit',
          kind: 'option',
          list: 'ListHoechstgeschwindigkeit',
          extraEntries: true,
        },
        { path: 'Labeling.Tunnelfaehigkeit', kind: 'boolean' },
        { path: 'Labeling.Faehrbootfaehigkeit', kind: 'boolean' },
        { path: 'Labeling.Funkenschutzbleche', kind: 'boolean' },
        { path: 'Labeling.Abstossverbot', kind: 'boolean' },
        { path: 'Labeling.Zulassungslaender', kind: 'string' },
        { path: 'Labeling.ECM', kind: 'string' },
      ],
    },
    {
      id: 'labelingDimensions',
      fields: [
        metres('Labeling.LaengeUeberPuffer', 2),
        metres('Labeling.Drehzapfenabstand', 2, { visibleWhen: bogieWagon }),
        metres('Labeling.AbstandEndradsaetze', 2, { visibleWhen: bogieWagon }),
        metres('Labeling.KleinsterBefahrbarerBogenhalbmesser', 0),
        metres('Labeling.KleinsterBefahrbarerAusrundungshalbmesser', 0),
        metres('Labeling.Ladelaenge', 2),
        { path: 'Labeling.Ladeflaeche', kind: 'double', unit: 'm²', decimals: 1 },
        { path: 'Labeling.Laderaum', kind: 'double', unit: 'm³', decimals: 1 },
        { path: 'Labeling.Ladeebenenhoehe', kind: 'double', unit: 'mm', decimals: 0 },
        { path: 'Labeling.Bemerkung', kind: 'textarea', width: 'full', ignoreProgress: true },
      ],
    },
  ],
};

/** The overhaul levels (VPI-EMG) and wheelset maintenance levels, in picker order. */
const REVISION_WORK_CODES: readonly string[] = [
  'G40',
  'G42',
  'G43',
  'G48',
  'G481',
  'G482',
  'G483',
  'IS1',
  'IS2',
  'IS3',
  'IL',
  'D',
  '3L',
];

/**
 * The last works of each level the wagon records, keyed by the level's code: only the levels the wagon has
 * actually received get an entry, each with its date and the workshop that did it.
 */
const REVISION_WORKS: CollectionDef = {
  path: 'Revision.RevisionWorkCollection.RevisionWork',
  differentiator: { path: 'Instandhaltungsstufe', kind: 'option', ignoreProgress: true },
  values: REVISION_WORK_CODES,
  min: 0,
  max: REVISION_WORK_CODES.length,
  fields: [
    { path: 'Datum', kind: 'date', label: 'revisionWorkDate' },
    { path: 'Werkstatt', kind: 'string', label: 'revisionWorkWorkshop' },
  ],
};

/** The overhaul cycle and the deadline it gives, and the last works by level. */
export const revisionDeadlineTab: TabDef = {
  id: 'revisionDeadline',
  chapters: [
    {
      id: 'revisionCycle',
      fields: [
        { path: 'Revision.Revisionszyklus', kind: 'double', unit: 'years', decimals: 0 },
        months('Revision.Fristzyklus'),
        months('Revision.Revisionsfristverlaengerung'),
        { path: 'Revision.DatumLetzteFrist', kind: 'date', deadline: true },
        { path: 'Revision.Bemerkung', kind: 'textarea', width: 'full', ignoreProgress: true },
      ],
    },
    { id: 'revisionWorks', collection: REVISION_WORKS },
  ],
};

const released = { field: 'MobileService.ReleaseToServiceGranted', op: 'equals', value: true } as const;

/**
 * Mobile maintenance and the release to service (Regulation (EU) 2019/779): what the workshop did, and its
 * statement. All of it is the workshop's result, so outgoing only.
 */
export const mobileServiceTab: TabDef = {
  id: 'mobileService',
  chapters: [
    {
      id: 'mobileServiceWork',
      fields: [
        months('MobileService.DeadlineExtension', { side: 'out' }),
        { path: 'MobileService.PerformedMaintenanceSteps', kind: 'textarea', width: 'full', side: 'out' },
        {
          path: 'MobileService.ChangedComponents',
          kind: 'textarea',
          width: 'full',
          side: 'out',
          ignoreProgress: true,
        },
        { path: 'MobileService.DeferredWork', kind: 'textarea', width: 'full', side: 'out', ignoreProgress: true },
        {
          path: 'MobileService.RestrictionsOfUse',
          kind: 'textarea',
          width: 'full',
          side: 'out',
          ignoreProgress: true,
        },
      ],
    },
    {
      id: 'releaseToService',
      fields: [
        { path: 'MobileService.MaintenancePerformedCorrectly', kind: 'boolean', side: 'out' },
        {
          path: 'MobileService.ReleaseToServiceGranted',
          kind: 'boolean',
          side: 'out',
          visibleWhen: { field: 'MobileService.MaintenancePerformedCorrectly', op: 'equals', value: true },
        },
        { path: 'MobileService.IssuingDateCurrentReleaseToService', kind: 'date', side: 'out', visibleWhen: released },
        { path: 'MobileService.AuthorisedPerson', kind: 'string', side: 'out', visibleWhen: released },
        { path: 'MobileService.AuthorisedPersonRole', kind: 'string', side: 'out', visibleWhen: released },
      ],
    },
  ],
};
