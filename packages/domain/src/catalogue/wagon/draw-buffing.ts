import type { CollectionDef, FieldDef, TabDef } from '../model.ts';
import { measure } from '../fields.ts';

/**
 * The wagon tab drawAndBufferingGear (docs/requirements/orders.md#draw-and-buffing-chapters,
 * docs/requirements/orders.md#draw-and-buffing-data, docs/requirements/validation.md#buffer-heights): climbing
 * protection, buffers, coupling rods, couplings, draw hooks and draw gear. Paths are relative to
 * `technicalWaggon{Incoming|Outgoing}`; everything sits below `Understructure.DrawAndBuffingGear`, since buffers and
 * draw gear are mounted on the underframe's headstocks. See docs/field-catalogue/wagon-draw-buffing.md for the choices
 * made where the spec is silent.
 */

const ROOT = 'Understructure.DrawAndBuffingGear';

const mm = measure('mm', 0);
const kN = measure('kN', 0);

/** The two wagon ends (end 1 and end 2 as marked on the wagon). */
const WAGON_ENDS = ['1', '2'] as const;

/** The buffer positions of ListPufferposition: wagon end 1 or 2, left or right. */
const BUFFER_POSITIONS = ['1L', '1R', '2L', '2R'] as const;

/**
 * Buffer height Z11 (height of the buffer centre above rail level), one field per position, shown only in the
 * entry of that position (docs/requirements/validation.md#buffer-heights). Outside 940–1065 mm (UIC 527-1, TSI WAG) the
 * editor warns.
 */
const bufferHeights: readonly FieldDef[] = BUFFER_POSITIONS.map((position) =>
  mm(`Z11_${position}`, {
    visibleWhen: { field: 'Pufferposition', op: 'equals', value: position },
    limits: [{ min: 940, max: 1065, source: 'UIC 527-1 / TSI WAG' }],
  }),
);

const BUFFERS: CollectionDef = {
  path: `${ROOT}.BufferCollection.Buffer`,
  differentiator: { path: 'Pufferposition', kind: 'option', list: 'ListPufferposition', ignoreProgress: true },
  values: BUFFER_POSITIONS,
  min: 0,
  max: 4,
  fields: [
    { path: 'Pufferbauart', kind: 'option', list: 'ListPufferbauart', extraEntries: true },
    { path: 'Pufferkategorie', kind: 'option', list: 'ListPufferkategorie' },
    { path: 'LetzteAufarbeitung', kind: 'date', label: 'bufferLastOverhaul' },
    mm('Pufferhub'),
    ...bufferHeights,
  ],
};

/** Rods between the units of a multi-unit wagon: one between each pair of neighbouring units. */
const COUPLING_RODS: CollectionDef = {
  path: `${ROOT}.CouplingRodCollection.CouplingRod`,
  differentiator: { path: 'PositionKuppelstange', kind: 'option', ignoreProgress: true },
  values: ['1', '2', '3', '4'],
  min: 0,
  max: 4,
  fields: [
    { path: 'Bauart', kind: 'string', label: 'couplingRodType' },
    { path: 'Seriennummer', kind: 'string', label: 'couplingRodSerialNumber' },
    mm('Laenge', { label: 'couplingRodLength' }),
  ],
};

const COUPLINGS: CollectionDef = {
  path: `${ROOT}.CouplingCollection.Coupling`,
  differentiator: { path: 'PositionKupplung', kind: 'option', ignoreProgress: true },
  values: WAGON_ENDS,
  min: 0,
  max: 2,
  fields: [
    { path: 'Kupplungsbauart', kind: 'option', list: 'ListKupplungsbauart' },
    { path: 'Seriennummer', kind: 'string', label: 'couplingSerialNumber' },
    kN('Bruchlast', { label: 'couplingBreakingLoad' }),
  ],
};

const DRAW_HOOKS: CollectionDef = {
  path: `${ROOT}.DrawHookCollection.DrawHook`,
  differentiator: { path: 'PositionZughaken', kind: 'option', ignoreProgress: true },
  values: WAGON_ENDS,
  min: 0,
  max: 2,
  fields: [
    { path: 'Seriennummer', kind: 'string', label: 'drawHookSerialNumber' },
    mm('Laenge', { label: 'drawHookLength' }),
    kN('Bruchlast', { label: 'drawHookBreakingLoad' }),
  ],
};

/** The draw gear of each wagon end (its elastic device); the draw hook has its own chapter. */
const DRAW_GEAR_ENDS: CollectionDef = {
  path: `${ROOT}.DrawGearCollection.DrawGear`,
  differentiator: { path: 'PositionZugeinrichtung', kind: 'option', ignoreProgress: true },
  values: WAGON_ENDS,
  min: 0,
  max: 2,
  fields: [
    { path: 'Federbauart', kind: 'string', label: 'drawGearSpringType' },
    { path: 'LetzteAufarbeitung', kind: 'date', label: 'drawGearLastOverhaul' },
  ],
};

const climbingProtectionFitted = {
  field: `${ROOT}.ClimbingProtection.Aufkletterschutz`,
  op: 'equals',
  value: true,
} as const;

/** Coupling rods only exist between the units of a wagon of more than one unit (basedata AnzahlTeilfahrzeuge). */
const multiUnitWagon = { field: 'AnzahlTeilfahrzeuge', op: 'moreThan', value: 1 } as const;

export const drawAndBufferingGearTab: TabDef = {
  id: 'drawAndBufferingGear',
  chapters: [
    {
      id: 'climbingProtection',
      fields: [
        { path: `${ROOT}.ClimbingProtection.Aufkletterschutz`, kind: 'boolean' },
        {
          path: `${ROOT}.ClimbingProtection.Bauart`,
          kind: 'string',
          label: 'climbingProtectionType',
          visibleWhen: climbingProtectionFitted,
        },
      ],
    },
    { id: 'buffers', collection: BUFFERS },
    { id: 'couplingRods', visibleWhen: multiUnitWagon, collection: COUPLING_RODS },
    { id: 'couplings', collection: COUPLINGS },
    { id: 'drawHooks', collection: DRAW_HOOKS },
    {
      id: 'drawGearUniform',
      fields: [
        { path: `${ROOT}.DrawGear.Zugeinrichtung`, kind: 'option', list: 'ListZugeinrichtung' },
        kN(`${ROOT}.DrawGear.Bruchlast`, { label: 'drawGearBreakingLoad' }),
      ],
    },
    { id: 'drawGearSingle', collection: DRAW_GEAR_ENDS },
  ],
};
