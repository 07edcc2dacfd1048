// Pictures for the readers: one frame cropped to where the number is looked for, scaled to a size the OCR reads
// well and quickly, in grey with its contrast stretched. Plain canvas work on the main thread: a frame is small.

export type FrameSource = HTMLVideoElement | HTMLCanvasElement | ImageBitmap;
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The source's own size in pixels (a video's intrinsic size, not its size on screen). */
export function sourceSize(source: FrameSource): { width: number; height: number } {
  if (typeof HTMLVideoElement !== 'undefined' && source instanceof HTMLVideoElement) {
    return { width: source.videoWidth, height: source.videoHeight };
  }
  return { width: source.width, height: source.height };
}

/** The rectangle inside the source, rounded to whole pixels; the whole source when none or none of it is inside. */
export function clampRect(rect: Rect | undefined, size: { width: number; height: number }): Rect {
  const whole = { x: 0, y: 0, width: size.width, height: size.height };
  if (!rect) return whole;
  const x = Math.max(0, Math.floor(rect.x));
  const y = Math.max(0, Math.floor(rect.y));
  const right = Math.min(size.width, Math.ceil(rect.x + rect.width));
  const bottom = Math.min(size.height, Math.ceil(rect.y + rect.height));
  return right - x >= 8 && bottom - y >= 8 ? { x, y, width: right - x, height: bottom - y } : whole;
}

/**
 * The largest side the OCR gets: painted digits fill a good part of the aimed rectangle, and Tesseract reads best
 * at 20-60 px per character; larger pictures cost time (on a slow tablet most of a reading) and read no better.
 */
const OCR_MAX_WIDTH = 1000;
const OCR_MAX_HEIGHT = 600;

/** A 2D canvas of the given size: an OffscreenCanvas where there is one (no DOM needed), else a <canvas>. */
function canvasOf(width: number, height: number): OffscreenCanvas | HTMLCanvasElement {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function context2d(canvas: OffscreenCanvas | HTMLCanvasElement) {
  const context = canvas.getContext('2d', { willReadFrequently: true }) as
    OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!context) throw new Error('no 2D canvas context');
  return context;
}

/**
 * The part of the source inside `rect`, scaled by `scale` and turned by `-angle` (radians) about its middle, as
 * pixels: a number painted at a slant comes out level. The whole source is drawn, so that the corners a turn uncovers
 * show the frame around the rectangle rather than black.
 */
export function grab(source: FrameSource, rect: Rect, scale: number, angle = 0): ImageData {
  const width = Math.max(1, Math.round(rect.width * scale));
  const height = Math.max(1, Math.round(rect.height * scale));
  const context = context2d(canvasOf(width, height));
  context.imageSmoothingQuality = 'high';
  context.translate(width / 2, height / 2);
  if (angle !== 0) context.rotate(-angle);
  context.scale(scale, scale);
  context.translate(-(rect.x + rect.width / 2), -(rect.y + rect.height / 2));
  context.drawImage(source, 0, 0);
  return context.getImageData(0, 0, width, height);
}

/** The aim with a margin around it: digits touching the edge of a picture are read badly, and aims are rough. */
export function withMargin(rect: Rect, size: { width: number; height: number }): Rect {
  const dx = rect.width * 0.06;
  const dy = rect.height * 0.12;
  return clampRect({ x: rect.x - dx, y: rect.y - dy, width: rect.width + 2 * dx, height: rect.height + 2 * dy }, size);
}

/** Slants tried by skewAngle: a hand holds a tablet within a few degrees of level. */
const SKEW_STEP = Math.PI / 360;
const SKEW_MAX = 20 * SKEW_STEP;

/**
 * The slant of the text lines in the picture, in radians (positive: falling to the right): the angle whose rows of
 * "ink" pixels (paint of the given polarity) are most concentrated, the sum of squares of a projection profile.
 * Tesseract reads a line that slants by more than a degree or two much worse, dropping digits at its ends.
 */
export function skewAngle(lum: Luminance, lightOnDark: boolean): number {
  const { grey, width, height, trough, peak, median } = lum;
  // Halfway between the ground and the paint's extreme: the ground's noise and streaks stay below it.
  const threshold = lightOnDark ? (median + peak) / 2 : (median + trough) / 2;
  const xs: number[] = [];
  const ys: number[] = [];
  // Every other pixel in both directions: plenty for a profile, a quarter of the work.
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      const value = grey[y * width + x]!;
      if (lightOnDark ? value > threshold : value < threshold) {
        xs.push(x - width / 2);
        ys.push(y);
      }
    }
  }
  if (xs.length < 50) return 0;
  let best = 0;
  let bestScore = -1;
  // Bins as high as the sampling step: finer ones would favour the level angle, where every sampled row falls on
  // an even bin.
  const bins = new Float64Array(height);
  for (let angle = -SKEW_MAX; angle <= SKEW_MAX + 1e-9; angle += SKEW_STEP) {
    bins.fill(0);
    const tan = Math.tan(angle);
    for (let i = 0; i < xs.length; i++) {
      const row = Math.floor((ys[i]! - xs[i]! * tan) / 2 + height / 2);
      if (row >= 0 && row < bins.length) bins[row]! += 1;
    }
    let score = 0;
    for (const count of bins) score += count * count;
    if (score > bestScore) {
      bestScore = score;
      best = angle;
    }
  }
  return best;
}

/** The scale that brings a rectangle within the OCR's largest size (never enlarging more than twice). */
export function ocrScale(rect: Rect): number {
  return Math.min(2, OCR_MAX_WIDTH / rect.width, OCR_MAX_HEIGHT / rect.height);
}

export interface Luminance {
  /** Grey values 0-255 of the pixels (Rec. 601 weights). */
  grey: Uint8ClampedArray;
  width: number;
  height: number;
  /** The 2nd and 98th percentile: the dark and bright ends without stray pixels. */
  low: number;
  high: number;
  /** The 0.5th and 99.5th percentile: the darkest and brightest paint, also where the digits are a small part of the
   *  picture. */
  trough: number;
  peak: number;
  /** Median: whether the background (most of the picture) is dark or light. */
  median: number;
}

export function luminance(image: ImageData): Luminance {
  const { data, width, height } = image;
  const grey = new Uint8ClampedArray(width * height);
  const histogram = new Uint32Array(256);
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) {
    const value = (data[i]! * 299 + data[i + 1]! * 587 + data[i + 2]! * 114) / 1000;
    grey[p] = value;
    histogram[grey[p]!]!++;
  }
  const percentile = (share: number) => {
    const target = share * grey.length;
    let seen = 0;
    for (let value = 0; value < 256; value++) {
      seen += histogram[value]!;
      if (seen >= target) return value;
    }
    return 255;
  };
  return {
    grey,
    width,
    height,
    low: percentile(0.02),
    high: percentile(0.98),
    trough: percentile(0.005),
    peak: percentile(0.995),
    median: percentile(0.5),
  };
}

/**
 * The picture in grey, smoothed over 3x3 pixels (a camera's noise, stretched with the contrast, reads as stray
 * digits and breaks the digits' edges), contrast stretched between its 2nd and 98th percentile, dark text on light
 * ground: inverted when `invert` (light paint on a dark wagon). Tesseract's LSTM reads dark on light; its own
 * binarisation then works on the full range.
 */
export function ocrPicture(lum: Luminance, invert: boolean): ImageData {
  const { grey, width, height, low, high } = lum;
  const span = Math.max(1, high - low);
  const image = new ImageData(width, height);
  const out = image.data;
  for (let y = 0; y < height; y++) {
    const above = y > 0 ? y - 1 : y;
    const below = y < height - 1 ? y + 1 : y;
    for (let x = 0; x < width; x++) {
      const left = x > 0 ? x - 1 : x;
      const right = x < width - 1 ? x + 1 : x;
      let sum = 0;
      for (const row of [above, y, below]) {
        const base = row * width;
        sum += grey[base + left]! + grey[base + x]! + grey[base + right]!;
      }
      let value = ((sum / 9 - low) * 255) / span;
      if (invert) value = 255 - value;
      const i = (y * width + x) * 4;
      out[i] = out[i + 1] = out[i + 2] = value;
      out[i + 3] = 255;
    }
  }
  return image;
}

/** The pixels as a PNG, the form tesseract.js hands its worker. */
export async function pngOf(image: ImageData): Promise<Blob> {
  const canvas = canvasOf(image.width, image.height);
  context2d(canvas).putImageData(image, 0, 0);
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type: 'image/png' });
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}
