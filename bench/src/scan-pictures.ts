// Generated camera frames of wagon numbers, for the scanner's benchmark (scan.ts) and the e2e fake camera: painted
// numbers in several fonts, sizes, light and dark paint, blurred, skewed, noisy, partly covered, on one line or two,
// with or without the hyphen; QR codes and Code 128 barcodes carrying a number; and frames that must be refused
// (a wrong check digit painted, far too dark, no number at all). Rendered on a canvas in Chromium, so the fonts and
// the drawing are a browser's; deterministic: the same seed gives the same specs and the same pictures.
import { checkDigit, formatVehicleNumber } from '@vers/domain';
import bwipjs from 'bwip-js/node';
import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { seededRandom } from './random.ts';

/** The frame size: a tablet camera's 720p stream, which the UI hands the scanner as it is. */
export const FRAME = { width: 1280, height: 720 } as const;
/** Where the UI asks the user to aim the number: the middle of the frame. */
export const AIM = { x: 160, y: 200, width: 960, height: 320 } as const;

/** Fonts on Debian (fonts-dejavu, fonts-liberation), bold and regular: the kinds of letters stencils and labels use. */
export const SCAN_FONTS = [
  'bold "DejaVu Sans"',
  '"DejaVu Sans"',
  'bold "DejaVu Sans Condensed"',
  'bold "DejaVu Sans Mono"',
  'bold "Liberation Sans"',
  'bold "Liberation Sans Narrow"',
  '"Liberation Mono"',
  'bold "DejaVu Serif"',
] as const;

/** How the number is written: the printed form, without the hyphen, split over two lines, digits only. */
export type ScanLayout = 'hyphen' | 'noHyphen' | 'twoLines' | 'twoLinesAfterType' | 'plain';

export type ScanPictureSpec =
  | {
      kind: 'text';
      /** What is painted: 12 digits, not necessarily with a right check digit. */
      digits: string;
      layout: ScanLayout;
      font: string;
      /** Height of the digits in px (less where the number would not fit the aim). */
      size: number;
      /** dark: dark paint on a light ground; light: light paint on a dark wagon. */
      paint: 'dark' | 'light';
      blur: number;
      /** Rotation in degrees and horizontal shear (tan of the angle). */
      rotate: number;
      shear: number;
      /** Amplitude of per-pixel noise, 0-255. */
      noise: number;
      /** A bar across part of the number: share of the number's width covered, 0 for none. */
      occlusion: number;
      /** Brightness of the whole frame, 1 for a good exposure. */
      exposure: number;
      /** Offset of the number from the aim's middle, px (less where the number would leave the aim). */
      dx: number;
      dy: number;
    }
  | {
      kind: 'qr' | 'code128';
      digits: string;
      /** The code's text: the digits, the printed form or a link ending in the digits. */
      text: string;
      /** Side (QR) or width (barcode) in px. */
      size: number;
      rotate: number;
      blur: number;
      noise: number;
      exposure: number;
    }
  | { kind: 'empty'; paint: 'dark' | 'light'; noise: number; exposure: number };

/** What a right scanner answers for a picture: the number, or a refusal. */
export type ScanExpectation = { number: string } | { refused: 'checkDigit' | 'tooDark' | 'noNumber' };

export function expectedReading(spec: ScanPictureSpec): ScanExpectation {
  if (spec.kind === 'empty') return { refused: spec.exposure < 0.2 ? 'tooDark' : 'noNumber' };
  if (spec.exposure < 0.2) return { refused: 'tooDark' };
  const valid = checkDigit(spec.digits.slice(0, 11)) === Number(spec.digits[11]);
  return valid ? { number: spec.digits } : { refused: 'checkDigit' };
}

/** A random valid number: a real exchange code (31, 33, 37, 21…), a country code and any type and serial. */
export function randomNumber(random: () => number): string {
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  let first11 = `${pick(['31', '33', '37', '21', '23', '80', '81', '84'])}${pick(['80', '81', '85', '54', '56', '51', '87'])}`;
  while (first11.length < 11) first11 += String(Math.floor(random() * 10));
  return `${first11}${checkDigit(first11)}`;
}

/**
 * `count` picture specs from `seed`: mostly painted numbers with every kind of trouble, a fifth codes, and a few
 * frames that must be refused (a painted wrong check digit, a frame far too dark, a frame without a number).
 */
export function scanPictureSpecs(count: number, seed = 24): ScanPictureSpec[] {
  const random = seededRandom(seed);
  const between = (low: number, high: number) => low + random() * (high - low);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const specs: ScanPictureSpec[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    let digits = randomNumber(random);
    if (roll < 0.04) {
      specs.push({ kind: 'empty', paint: pick(['dark', 'light']), noise: between(0, 30), exposure: pick([1, 0.1]) });
      continue;
    }
    if (roll < 0.12) {
      specs.push({
        kind: 'qr',
        digits,
        text: pick([digits, formatVehicleNumber(digits), `https://vers.example/wagon/${digits}`]),
        size: between(140, 320),
        rotate: between(-20, 20),
        blur: between(0, 1.2),
        noise: between(0, 30),
        exposure: between(0.6, 1.1),
      });
      continue;
    }
    if (roll < 0.2) {
      specs.push({
        kind: 'code128',
        digits,
        text: pick([digits, formatVehicleNumber(digits)]),
        size: between(300, 700),
        rotate: between(-5, 5),
        blur: between(0, 1),
        noise: between(0, 25),
        exposure: between(0.6, 1.1),
      });
      continue;
    }
    // A wrong check digit painted (a misprint): must be refused.
    if (roll < 0.25) digits = `${digits.slice(0, 11)}${(Number(digits[11]) + 1 + Math.floor(random() * 9)) % 10}`;
    const hard = random();
    specs.push({
      kind: 'text',
      digits,
      layout: pick(['hyphen', 'hyphen', 'noHyphen', 'twoLines', 'twoLinesAfterType', 'plain'] as const),
      font: pick(SCAN_FONTS),
      size: between(24, 80),
      paint: pick(['dark', 'light']),
      blur: hard < 0.3 ? between(0, 0.5) : between(0, 2.2),
      rotate: between(-6, 6),
      shear: between(-0.15, 0.15),
      noise: between(0, hard < 0.5 ? 20 : 50),
      occlusion: random() < 0.15 ? between(0.03, 0.25) : 0,
      exposure: random() < 0.05 ? between(0.05, 0.15) : between(0.45, 1.15),
      dx: between(-120, 120),
      dy: between(-50, 50),
    });
  }
  return specs;
}

/** The lines painted for a layout. */
export function paintedLines(digits: string, layout: ScanLayout): string[] {
  const printed = formatVehicleNumber(digits);
  switch (layout) {
    case 'hyphen':
      return [printed];
    case 'noHyphen':
      return [printed.replace('-', ' ')];
    case 'twoLines':
      return [printed.slice(0, 5), printed.slice(6)];
    case 'twoLinesAfterType':
      return [printed.slice(0, 10), printed.slice(11)];
    case 'plain':
      return [digits];
  }
}

/** The code's picture as a PNG data URL, drawn in node by the libraries (qrcode, bwip-js). */
async function codePicture(spec: Extract<ScanPictureSpec, { kind: 'qr' | 'code128' }>): Promise<string> {
  if (spec.kind === 'qr') return QRCode.toDataURL(spec.text, { margin: 4, scale: 4, errorCorrectionLevel: 'M' });
  const png = await bwipjs.toBuffer({ bcid: 'code128', text: spec.text, scale: 2, height: 14, includetext: true });
  return `data:image/png;base64,${png.toString('base64')}`;
}

/**
 * Renders one picture in the page (any page: about:blank will do) and returns it as PNG bytes. The drawing runs
 * inside the page; everything it needs is passed in.
 */
export async function renderScanPicture(page: Page, spec: ScanPictureSpec, seed = 1): Promise<Buffer> {
  const code = spec.kind === 'qr' || spec.kind === 'code128' ? await codePicture(spec) : null;
  const lines = spec.kind === 'text' ? paintedLines(spec.digits, spec.layout) : [];
  // tsx (esbuild, keepNames) wraps the functions below in a `__name` helper that the page does not have: given here,
  // as a string, which esbuild leaves alone.
  await page.evaluate('globalThis.__name ??= (f) => f');
  const dataUrl = await page.evaluate(
    async ({ spec, code, lines, frame, aim, seed }) => {
      const canvas = document.createElement('canvas');
      canvas.width = frame.width;
      canvas.height = frame.height;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      let state = seed >>> 0;
      const random = () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      const light = spec.kind === 'empty' ? spec.paint === 'dark' : spec.kind !== 'text' || spec.paint === 'dark';
      // The ground: a wagon's paint (dark) or a light panel or label, with a gentle gradient and some streaks.
      const hue = Math.floor(random() * 360);
      const gradient = context.createLinearGradient(0, 0, frame.width, frame.height);
      gradient.addColorStop(0, light ? `hsl(${hue} 10% 82%)` : `hsl(${hue} 30% 22%)`);
      gradient.addColorStop(1, light ? `hsl(${hue} 12% 70%)` : `hsl(${hue} 25% 14%)`);
      context.fillStyle = gradient;
      context.fillRect(0, 0, frame.width, frame.height);
      for (let i = 0; i < 12; i++) {
        context.fillStyle = `rgba(${light ? '0,0,0' : '255,255,255'},${0.02 + random() * 0.05})`;
        context.fillRect(random() * frame.width, 0, 4 + random() * 40, frame.height);
      }
      const centreX = aim.x + aim.width / 2;
      const centreY = aim.y + aim.height / 2;
      if (spec.kind === 'text') {
        // The digits' font size from their height (~0.73 of the em in these fonts), made smaller where the number
        // would not fit the aim, and the offset kept so that it stays inside: the user aims the number into it.
        const family = spec.font.replace(/^bold /, '');
        const weight = spec.font.startsWith('bold') ? 'bold ' : '';
        let fontPx = Math.round(spec.size / 0.73);
        context.font = `${weight}${fontPx}px ${family}`;
        const measured = Math.max(...lines.map((line) => context.measureText(line).width));
        const fits = Math.min(1, (aim.width * 0.92) / measured);
        fontPx = Math.floor(fontPx * fits);
        const size = spec.size * fits;
        context.font = `${weight}${fontPx}px ${family}`;
        const widest = Math.max(...lines.map((line) => context.measureText(line).width));
        const lineHeight = size * 1.5;
        const blockHeight = (lines.length - 1) * lineHeight + size;
        const roomX = Math.max(0, (aim.width - widest) / 2 - 10);
        const roomY = Math.max(0, (aim.height - blockHeight) / 2 - 10);
        context.save();
        context.translate(
          centreX + Math.max(-roomX, Math.min(roomX, spec.dx)),
          centreY + Math.max(-roomY, Math.min(roomY, spec.dy)),
        );
        context.rotate((spec.rotate * Math.PI) / 180);
        context.transform(1, 0, spec.shear, 1, 0, 0);
        context.textAlign = 'center';
        context.textBaseline = 'middle';
        context.fillStyle = spec.paint === 'dark' ? `hsl(${hue} 20% 12%)` : `hsl(${hue} 10% 92%)`;
        context.filter = spec.blur > 0.05 ? `blur(${spec.blur.toFixed(2)}px)` : 'none';
        const top = (-(lines.length - 1) * lineHeight) / 2;
        lines.forEach((line, index) => context.fillText(line, 0, top + index * lineHeight));
        context.filter = 'none';
        if (spec.occlusion > 0) {
          // A bar of dirt or a pipe in front of the number, across its full height, somewhere along it.
          const width = widest * spec.occlusion;
          const left = -widest / 2 + random() * (widest - width);
          context.fillStyle = light ? 'rgb(120,110,100)' : 'rgb(60,50,45)';
          context.fillRect(left, top - size, width, (lines.length - 1) * lineHeight + size * 2);
        }
        context.restore();
      } else if (code) {
        const image = new Image();
        image.src = code;
        await image.decode();
        const width = spec.kind === 'empty' ? 0 : spec.size;
        const height = (image.height * width) / image.width;
        context.save();
        context.translate(centreX, centreY);
        context.rotate(((spec.kind === 'empty' ? 0 : spec.rotate) * Math.PI) / 180);
        context.imageSmoothingEnabled = false;
        context.filter = spec.kind !== 'empty' && spec.blur > 0.05 ? `blur(${spec.blur.toFixed(2)}px)` : 'none';
        context.drawImage(image, -width / 2, -height / 2, width, height);
        context.restore();
      }
      // Exposure and sensor noise over the whole frame.
      const pixels = context.getImageData(0, 0, frame.width, frame.height);
      const data = pixels.data;
      const noise = spec.noise;
      for (let i = 0; i < data.length; i += 4) {
        const n = noise > 0 ? (random() + random() - 1) * noise : 0;
        data[i] = data[i]! * spec.exposure + n;
        data[i + 1] = data[i + 1]! * spec.exposure + n;
        data[i + 2] = data[i + 2]! * spec.exposure + n;
      }
      context.putImageData(pixels, 0, 0);
      return canvas.toDataURL('image/png');
    },
    { spec, code, lines, frame: FRAME, aim: AIM, seed },
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}
