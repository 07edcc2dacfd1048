import {
  type ImportMessageKey,
  type ImportValidation,
  ORDER_TYPES,
  type OrderType,
  VALIDATION_STATUSES,
} from '@vers/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets } from '../db/schema.ts';
import type { AssetStorage } from '../assets/storage.ts';
import { type XmlImportValue, parseOrderXml } from './xml-import.ts';

/** What the `validation` column of an IMPORT asset holds. */
export type StoredValidation =
  | { validationStatus: 'IN_VALIDATION' }
  | {
      validationStatus: 'VALID';
      orderType: OrderType;
      number: string;
      subNumbers: string[];
      /** The file's incoming values: an order created from the import starts with them. */
      values: XmlImportValue[];
    }
  | { validationStatus: 'INVALID'; messageKey: ImportMessageKey; message: string };

/** The validation as the browser sees it when it expects a file for an order of `expected` type. */
export function toImportValidation(id: string, stored: StoredValidation | null, expected: OrderType): ImportValidation {
  const none = { id, messageKey: null, message: null, number: null, subNumbers: [] };
  if (!stored || stored.validationStatus === 'IN_VALIDATION') {
    return { ...none, validationStatus: VALIDATION_STATUSES.IN_VALIDATION };
  }
  if (stored.validationStatus === 'INVALID') {
    return { ...none, validationStatus: 'INVALID', messageKey: stored.messageKey, message: stored.message };
  }
  if (stored.orderType !== expected) {
    return {
      ...none,
      validationStatus: 'INVALID',
      messageKey: 'UNEXPECTED_ORDER_TYPE',
      message: `The file holds a ${stored.orderType} order, not ${expected}`,
    };
  }
  return { ...none, validationStatus: 'VALID', number: stored.number, subNumbers: stored.subNumbers };
}

/** Reads a file as a template of whichever order type its body names (the expected one is asked for later). */
export async function checkImportFile(text: string): Promise<StoredValidation> {
  let result = await parseOrderXml(text, ORDER_TYPES.WAGON);
  let orderType: OrderType = ORDER_TYPES.WAGON;
  if (!result.ok && result.messageKey === 'UNEXPECTED_ORDER_TYPE') {
    result = await parseOrderXml(text, ORDER_TYPES.WHEELSET);
    orderType = ORDER_TYPES.WHEELSET;
  }
  if (!result.ok) {
    const where = result.line === undefined ? '' : ` (line ${result.line})`;
    return { validationStatus: 'INVALID', messageKey: result.messageKey, message: `${result.message}${where}` };
  }
  const { number, subNumbers, values } = result;
  return { validationStatus: 'VALID', orderType, number, subNumbers, values };
}

/** The import-validation job: checks the stored file once and records the result. */
export async function validateImportJob(db: Db, storage: AssetStorage, assetId: string): Promise<void> {
  const [row] = await db.select().from(assets).where(eq(assets.id, assetId));
  if (!row || (row.validation as StoredValidation | null)?.validationStatus !== 'IN_VALIDATION') return;
  const bytes = await storage.get(row.id);
  let validation: StoredValidation;
  try {
    if (bytes === null) throw new Error('the file content is missing');
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    validation = await checkImportFile(text);
  } catch (error) {
    validation = {
      validationStatus: 'INVALID',
      messageKey: 'NOT_VALID_XML',
      message: `The file could not be read: ${(error as Error).message}`,
    };
  }
  await db.update(assets).set({ validation }).where(eq(assets.id, assetId));
}
