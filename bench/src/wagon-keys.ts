export const OUT = '$.Body.Wagen.technicalWaggonOutgoing';
export const IN = '$.Body.Wagen.technicalWaggonIncoming';

/** Catalogued text fields of a wagon order that any text fits: the benchmarks spread their changes over them. */
export const TEXT_KEYS = [
  `${OUT}.Halterkurzkennzeichen`,
  `${IN}.Halterkurzkennzeichen`,
  `${IN}.LetztesLadegut`,
  `${OUT}.Bemerkung`,
  `${IN}.Bemerkung`,
  `${OUT}.TSIZulassungsstelle`,
];
