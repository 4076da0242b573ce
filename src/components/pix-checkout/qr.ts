// The BR Code as a QR symbol: uqr encodes, we draw one SVG path (no raster, crisp at any size, theme-proof black on white).
import { encode } from 'uqr';

export interface QrSymbol {
  /** Modules per side, quiet zone excluded. */
  size: number;
  /** The dark modules as one path in module units: one rectangle per horizontal run. */
  path: string;
}

/** The quiet zone the QR standard asks for around the symbol, in modules; bank apps read poorly without it. */
export const QUIET_ZONE = 4;

/** `qrSymbol` that keeps the last symbol: a render re-draws the same BR Code without encoding it again. */
export function lastQrSymbol(): (text: string) => QrSymbol {
  let last: { text: string; symbol: QrSymbol } | undefined;
  return (text) => {
    if (last?.text !== text) last = { text, symbol: qrSymbol(text) };
    return last.symbol;
  };
}

/**
 * Error correction M (15 %): what Brazilian banks print on PIX charges. A BR Code of 150–250 characters fits
 * version 8–10 at M, small enough for a phone camera at the size we draw it.
 */
export function qrSymbol(text: string): QrSymbol {
  const { size, data } = encode(text, { ecc: 'M', border: 0 });
  const parts: string[] = [];
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size; ) {
      if (!row[x]) {
        x++;
        continue;
      }
      let run = 1;
      while (x + run < size && row[x + run]) run++;
      parts.push(`M${x} ${y}h${run}v1h-${run}z`);
      x += run;
    }
  }
  return { size, path: parts.join('') };
}
