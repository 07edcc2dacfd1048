import { keeperMarkingVkm } from '@vers/domain';

/** The most markings one keeper holds (the contract's limit). */
export const KEEPER_MARKINGS_MAX = 50;
export const KEEPER_NAME_MAX = 200;

export interface ParsedMarkings {
  /** What will be stored: each VKM once, upper case, in the order typed. */
  vkms: string[];
  /** Entries that name no VKM, as typed. */
  invalid: string[];
}

/**
 * The markings typed in one field, separated by commas, semicolons or line breaks (not by spaces: `D - GATX` is one
 * marking). Each may be the VKM alone (`GATX`) or as painted with its country (`D-GATX`); the keeper stores the VKM.
 */
export function parseMarkings(text: string): ParsedMarkings {
  const vkms: string[] = [];
  const invalid: string[] = [];
  for (const entry of text.split(/[,;\n]/)) {
    const typed = entry.trim();
    if (typed === '') continue;
    const vkm = keeperMarkingVkm(typed);
    if (vkm === null) invalid.push(typed);
    else if (!vkms.includes(vkm)) vkms.push(vkm);
  }
  return { vkms, invalid };
}

export interface KeeperFormErrors {
  name?: 'required' | 'tooLong';
  markings?: 'required' | 'invalid' | 'tooMany';
}

export function keeperFormErrors(name: string, markings: ParsedMarkings): KeeperFormErrors {
  const errors: KeeperFormErrors = {};
  if (name.trim() === '') errors.name = 'required';
  else if (name.trim().length > KEEPER_NAME_MAX) errors.name = 'tooLong';
  if (markings.invalid.length > 0) errors.markings = 'invalid';
  else if (markings.vkms.length === 0) errors.markings = 'required';
  else if (markings.vkms.length > KEEPER_MARKINGS_MAX) errors.markings = 'tooMany';
  return errors;
}
