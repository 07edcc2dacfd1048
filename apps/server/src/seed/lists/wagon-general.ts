import type { SeedValueList } from '../value-lists.ts';

/** Value lists of the wagon tabs labeling, revisionDeadline and mobileService (docs/field-catalogue/wagon-general.md). */
export const WAGON_GENERAL_LISTS: readonly SeedValueList[] = [
  // Maximum speed marked on a freight wagon, in km/h; the code is the number, the text adds the unit.
  {
    key: 'ListHoechstgeschwindigkeit',
    superstructureType: null,
    text: {
      de: 'Höchstgeschwindigkeit',
      bg: 'Максимална скорост',
      cs: 'Nejvyšší rychlost',
      en: 'Maximum speed',
      fr: 'Vitesse maximale',
      hu: 'Legnagyobb sebesség',
      it: 'Velocità massima',
      nl: 'Maximumsnelheid',
      pl: 'Prędkość maksymalna',
      ro: 'Viteză maximă',
      sv: 'Största hastighet',
      tr: 'Azami hız',
    },
    values: [
      { value: '80', text: '80 km/h' },
      { value: '90', text: '90 km/h' },
      { value: '100', text: '100 km/h' },
      { value: '120', text: '120 km/h' },
      { value: '140', text: '140 km/h' },
      { value: '160', text: '160 km/h' },
    ],
  },
];
