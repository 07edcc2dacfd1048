// The camera's number scanner: reads a wagon or wheelset number from one frame, from a barcode or QR code (ZXing,
// WebAssembly) or from the painted digits (Tesseract, WebAssembly in a worker), and gives it only when its check
// digit is right (readVehicleNumber of @vers/domain). Loaded only by dynamic import when the camera opens: the
// libraries, their .wasm files and the model (~7 MB) are no part of any screen's download; the service worker keeps
// them (vite.config.ts, scanAssets) so that scanning works offline. Nothing is fetched from anywhere but VERS.
import { readVehicleNumber, type VehicleNumberReading } from '@vers/domain';
import { createWorker, OEM, PSM, type Worker as OcrWorker } from 'tesseract.js';
import { prepareZXingModule, readBarcodes, type ReadInputBarcodeFormat } from 'zxing-wasm/reader';
import type { NumberScanner } from './types.ts';
import {
  clampRect,
  skewAngle,
  withMargin,
  type FrameSource,
  grab,
  luminance,
  ocrPicture,
  ocrScale,
  pngOf,
  type Rect,
  sourceSize,
} from './frame.ts';

export type { NumberScanner, ScanReading } from './types.ts';

/**
 * The codes a label or tag may carry a number in: the matrix codes and the industrial linear ones (Code 128, Code
 * 39, ITF). Retail codes (EAN/UPC) are left out: they cannot hold 12 digits of our own, and every format tried costs
 * time on each frame.
 */
const CODE_FORMATS: ReadInputBarcodeFormat[] = [
  'QRCode',
  'MicroQRCode',
  'DataMatrix',
  'Aztec',
  'Code128',
  'Code39',
  'ITF',
];

/** The largest side of the picture ZXing gets: codes on a tag are large in the frame; ZXing downscales further. */
const CODE_MAX_SIDE = 1280;

/**
 * Below this 99.5th percentile of grey (0-255) even the brightest parts of the frame are dark: paint cannot stand out.
 * Such a frame is not read at all; a frame read in vain whose brightest parts are below TOO_DARK_READ is reported
 * too dark rather than "no number".
 */
const TOO_DARK_SKIP = 28;
const TOO_DARK_READ = 70;
/** A slant below this (radians, ~0.5°) is not worth turning the picture for. */
const SKEW_STEP_MIN = 0.008;

/** Tesseract reads digits and the hyphen before the check digit, nothing else: a letter is never mistaken for one. */
const OCR_CHARACTERS = '0123456789-';

function refusal(reading: VehicleNumberReading): 'noNumber' | 'checkDigit' {
  return !reading.ok && reading.reason === 'checkDigit' ? 'checkDigit' : 'noNumber';
}

export async function createNumberScanner(): Promise<NumberScanner> {
  const assets = __VERS_SCAN_ASSETS__;
  // ZXing's module: its .wasm from VERS (the library's default is a CDN).
  const zxing = prepareZXingModule({
    overrides: {
      locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? assets.zxingWasm : prefix + file),
    },
    fireImmediately: true,
  });
  const ocr: OcrWorker = await createWorker('eng', OEM.LSTM_ONLY, {
    workerPath: assets.workerPath,
    corePath: assets.corePath,
    langPath: assets.langPath,
    gzip: true,
    // A worker from its own URL, not a blob: URL (the CSP's worker-src is 'self').
    workerBlobURL: false,
    // The service worker keeps the model; tesseract.js's own IndexedDB copy would keep it twice.
    cacheMethod: 'none',
  });
  await ocr.setParameters({
    tessedit_char_whitelist: OCR_CHARACTERS,
    // One block of text: a number on one line or two.
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    preserve_interword_spaces: '1',
  });
  await zxing;

  async function readCodes(frame: FrameSource, rect: Rect): Promise<string[]> {
    const scale = Math.min(1, CODE_MAX_SIDE / Math.max(rect.width, rect.height));
    const results = await readBarcodes(grab(frame, rect, scale), {
      formats: CODE_FORMATS,
      tryHarder: true,
      tryInvert: true,
      maxNumberOfSymbols: 4,
    });
    return results.filter((result) => result.isValid).map((result) => result.text);
  }

  async function readText(picture: ImageData): Promise<string> {
    const { data } = await ocr.recognize(await pngOf(picture));
    return data.text;
  }

  return {
    async read(frame, aim) {
      const size = sourceSize(frame);
      if (size.width === 0 || size.height === 0) return { kind: 'nothing', reason: 'noNumber' };
      const whole = clampRect(undefined, size);
      const aimed = aim ? withMargin(clampRect(aim, size), size) : whole;

      const scale = ocrScale(aimed);
      const level = luminance(grab(frame, aimed, scale));
      if (level.peak < TOO_DARK_SKIP) return { kind: 'nothing', reason: 'tooDark' };

      // Codes first: quick, and exact when found. The whole frame: a tag's code need not sit in the aim.
      const codes = readVehicleNumber(await readCodes(frame, whole));
      if (codes.ok) return { kind: 'number', digits: codes.digits, source: 'code' };
      if (codes.reason === 'ambiguous') return { kind: 'nothing', reason: 'noNumber' };

      // Then the painted digits inside the aim (not the whole frame: there the ground's streaks and noise read as
      // stray digits, and the user aims anyway), levelled: dark paint on light ground as it is, light paint on a
      // dark wagon inverted; the way the ground suggests first, the other one after.
      const lightOnDark = level.median < 128;
      const texts: string[] = [];
      let reason = refusal(codes);
      for (const paintIsLight of [lightOnDark, !lightOnDark]) {
        const angle = skewAngle(level, paintIsLight);
        const lum = Math.abs(angle) < SKEW_STEP_MIN ? level : luminance(grab(frame, aimed, scale, angle));
        texts.push(await readText(ocrPicture(lum, paintIsLight)));
        const reading = readVehicleNumber(texts);
        if (reading.ok) return { kind: 'number', digits: reading.digits, source: 'text' };
        // Two passes that found two different valid numbers: one is misread; refuse rather than guess.
        if (reading.reason === 'ambiguous') return { kind: 'nothing', reason: 'noNumber' };
        if (reading.reason === 'checkDigit') reason = 'checkDigit';
      }
      if (reason === 'noNumber' && level.peak < TOO_DARK_READ) return { kind: 'nothing', reason: 'tooDark' };
      return { kind: 'nothing', reason };
    },
    async dispose() {
      await ocr.terminate();
    },
  };
}
