import type { Language, OrderStatus, OrderType, PdfDocumentType, SignOffMeaning, Values } from '@vers/domain';

/** Everything a PDF document shows; read by the export job from the database, rendered without any I/O. */
export interface PdfDocumentInput {
  type: PdfDocumentType;
  language: Language;
  order: {
    id: string;
    number: string;
    externalOrderNumber: string;
    /** The wagon or wheelset number, 12 digits (format with formatVehicleNumber). */
    maintenanceNumber: string;
    contractor: string;
    type: OrderType;
    status: OrderStatus;
    created: Date;
  };
  workshop: {
    name: string;
    countryCode: string;
    email: string;
    phone: string;
    revNr: string;
    siteId: string;
    /** The workshop logo as PNG bytes, or null when none is set. */
    logoPng: Buffer | null;
  };
  /** The order's folded values (foldActivities(...).values): result key → stored attribute {value, ...}. */
  values: Values;
  /** Sub-vehicles of a wagon (anzahlTeilfahrzeuge, at least 1): the release to service has one section each. */
  subVehicles: number;
  /** Who asked for the document: named as the issuer. */
  issuedBy: { firstName: string; lastName: string };
  generatedAt: Date;
  /** The electronic sign-off a release to service prints (issue 21), with its check code as a QR code. */
  signOff?: {
    signer: string;
    role: string;
    meaning: SignOffMeaning;
    signedAt: Date;
    contentHash: string;
    code: string;
    checkUrl: string;
    qrPng: Buffer;
  };
  /** Value list texts in the document's language (list key → value → text): options print as users know them. */
  optionTexts?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}
