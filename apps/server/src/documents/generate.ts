import {
  ASSET_STATUSES,
  CONTRACTOR_LIST,
  type ExportType,
  type Language,
  type OrderStatus,
  type OrderType,
  type PdfDocumentType,
  type SignOffMeaning,
  signOffCheckPath,
  type TafValues,
  exportMediaType,
} from '@vers/domain';
import { eq } from 'drizzle-orm';
import { orderValues } from '../activity/append.ts';
import type { AssetStorage } from '../assets/storage.ts';
import type { Db } from '../db/client.ts';
import { assets, defaultOptionValues, defaultOptions, orderSignOffs, orders, workshops } from '../db/schema.ts';
import { rollingStockDataset } from './taf-tsi/rolling-stock-dataset.ts';
import { orderXml } from './xml-export.ts';

/** What POST export records for each document's job (the asset's `request` column). */
export interface GenerationRequest {
  language: Language;
  subVehicles: number;
  issuedBy: { firstName: string; lastName: string };
  /** A release to service: the sign-off it prints, and the origin its check code's QR code points to. */
  signOffId?: string;
  origin?: string;
  /** XML_TAF_TSI: the values the request gave for what the order lacks (POST export's `tafTsi`). */
  tafTsi?: TafValues;
}

/** The value lists' texts in one language, as the editor offers them: list key → value → text. */
async function optionTexts(db: Db, language: Language): Promise<Record<string, Record<string, string>>> {
  const rows = await db
    .select({ list: defaultOptions.key, value: defaultOptionValues.value, text: defaultOptionValues.text })
    .from(defaultOptionValues)
    .innerJoin(defaultOptions, eq(defaultOptionValues.optionId, defaultOptions.id))
    .where(eq(defaultOptions.lang, language));
  const lists: Record<string, Record<string, string>> = {};
  for (const row of rows) (lists[row.list] ??= {})[row.value] = row.text;
  return lists;
}

/** The file name of a document: order number, type and language, e.g. `2026-000042_release_to_service_de.pdf`. */
export function documentFilename(orderNumber: string, type: ExportType, language: Language): string {
  const safe = orderNumber.replace(/[^\w.-]+/g, '_');
  return `${safe}_${type.toLowerCase()}_${language}.${exportMediaType(type).extension}`;
}

/** Renders one document from the order as it stands now. */
export async function renderDocument(
  db: Db,
  orderId: string,
  type: ExportType,
  request: GenerationRequest,
  generatedAt = new Date(),
): Promise<Buffer> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`order ${orderId} is gone`);
  const [workshop] = await db.select().from(workshops).where(eq(workshops.id, order.workshopId));
  if (!workshop) throw new Error(`workshop ${order.workshopId} is gone`);
  const values = await orderValues(db, order.id);
  const orderType = order.type as OrderType;
  if (type === 'XML_WORKSHOP' || type === 'XML_KEEPER') {
    const header = {
      sender: {
        name: workshop.name,
        countryCode: workshop.countryCode,
        revNr: workshop.revNr,
        siteId: workshop.siteId,
      },
      orderNumber: order.number,
      generatedAt,
    };
    return Buffer.from(orderXml(orderType, type, values, order.maintenanceNumber, header), 'utf8');
  }
  if (type === 'XML_TAF_TSI') {
    const xml = rollingStockDataset({
      wagonNumber: order.maintenanceNumber,
      values,
      given: request.tafTsi ?? {},
      orderNumber: order.number,
      workshop: { name: workshop.name, countryCode: workshop.countryCode },
      generatedAt,
    });
    return Buffer.from(xml, 'utf8');
  }
  // The PDF library is large: loaded with the first document, not with every server start.
  const { renderPdf } = await import('./pdf/render.tsx');
  const lists = await optionTexts(db, request.language);
  const signOff = type === 'RELEASE_TO_SERVICE' ? await printedSignOff(db, request) : undefined;
  return renderPdf({
    type: type as PdfDocumentType,
    language: request.language,
    order: {
      id: order.id,
      number: order.number,
      externalOrderNumber: order.externalOrderNumber,
      maintenanceNumber: order.maintenanceNumber,
      // The contractor's name from the value list, as the screens show it; the stored code where the list lacks it.
      contractor: lists[CONTRACTOR_LIST]?.[order.contractor] ?? order.contractor,
      type: orderType,
      status: order.status as OrderStatus,
      created: order.created,
    },
    workshop: {
      name: workshop.name,
      countryCode: workshop.countryCode,
      email: workshop.email,
      phone: workshop.phone,
      revNr: workshop.revNr,
      siteId: workshop.siteId,
      logoPng: workshop.icon ? Buffer.from(workshop.icon, 'base64') : null,
    },
    values,
    subVehicles: request.subVehicles,
    issuedBy: request.issuedBy,
    generatedAt,
    optionTexts: lists,
    ...(signOff ? { signOff } : {}),
  });
}

/** The sign-off a release prints: the one the export request found, with its check page's address as a QR code. */
async function printedSignOff(db: Db, request: GenerationRequest) {
  if (!request.signOffId) throw new Error('a release to service is generated for a sign-off only');
  const [row] = await db.select().from(orderSignOffs).where(eq(orderSignOffs.id, request.signOffId));
  if (!row) throw new Error(`sign-off ${request.signOffId} is gone`);
  const checkUrl = `${request.origin ?? ''}${signOffCheckPath(row.code)}`;
  const { default: QRCode } = await import('qrcode');
  return {
    signer: row.signer,
    role: row.role,
    meaning: row.meaning as SignOffMeaning,
    signedAt: row.signedAt,
    contentHash: row.contentHash,
    code: row.code,
    checkUrl,
    qrPng: await QRCode.toBuffer(checkUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 1, scale: 4 }),
  };
}

/**
 * The document-generation job: renders the asset's document and stores it (AVAILABLE), or marks it FAILED so the
 * screen can say so. A job whose asset is no longer IN_GENERATION (done by another instance, deleted) does nothing.
 */
export async function generateDocumentJob(db: Db, storage: AssetStorage, assetId: string): Promise<void> {
  const [asset] = await db.select().from(assets).where(eq(assets.id, assetId));
  if (!asset || asset.status !== ASSET_STATUSES.IN_GENERATION || !asset.orderId) return;
  try {
    const bytes = await renderDocument(db, asset.orderId, asset.type as ExportType, asset.request as GenerationRequest);
    await storage.put(asset.id, bytes);
    await db
      .update(assets)
      .set({ status: ASSET_STATUSES.AVAILABLE, size: bytes.length })
      .where(eq(assets.id, asset.id));
  } catch (error) {
    console.warn(`document ${asset.id} (${asset.type}) failed:`, error);
    await db.update(assets).set({ status: ASSET_STATUSES.FAILED }).where(eq(assets.id, asset.id));
  }
}
