import type { SeedValueList } from '../value-lists.ts';
import { WAGON_BRAKE_LISTS } from './wagon-brake.ts';
import { WAGON_GENERAL_LISTS } from './wagon-general.ts';
import { WHEELSET_LISTS } from './wheelset.ts';

/** The value lists the catalogue's later tabs brought along. */
export const CATALOGUE_LISTS: readonly SeedValueList[] = [
  ...WAGON_GENERAL_LISTS,
  ...WAGON_BRAKE_LISTS,
  ...WHEELSET_LISTS,
];
