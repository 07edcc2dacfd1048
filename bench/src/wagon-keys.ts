export const OUT = '$.Body.Wagen.technicalWaggonOutgoing';
export const IN = '$.Body.Wagen.technicalWaggonIncoming';

/**
 * Catalogued text fields of a wagon order that any text fits: the benchmarks spread their changes over them. Not the
 * keeper marking (Halterkurzkennzeichen): since the holders' issue (22) a change of it also rewrites the order's keeper
 * VKM and takes the server's locked push path (orders/keeper-vkm.ts); it is set about once per order, and with two of
 * six keys here it sent four of five fleet batches down that path, so the push and fleet figures measured the rare
 * case (seen in a count of the statements the server ran: 349 fast batches, 1,102 locked ones).
 */
export const TEXT_KEYS = [
  `${IN}.TSIZulassungsstelle`,
  `${OUT}.Understructure.BaseBogie.Federungsart`,
  `${IN}.LetztesLadegut`,
  `${OUT}.Bemerkung`,
  `${IN}.Bemerkung`,
  `${OUT}.TSIZulassungsstelle`,
];
