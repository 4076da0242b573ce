// Reads a rendered QR code back as a phone camera would: the SVG rasterised on a canvas with a quiet zone, then decoded by jsQR.
import type jsQRFunction from 'jsqr';

type JsQR = typeof jsQRFunction;

let loading: Promise<JsQR> | undefined;

/** jsqr ships only a UMD build; loaded as a classic script (the test server serves node_modules as is) it sets `window.jsQR`. */
function loadJsQR(): Promise<JsQR> {
  loading ??= new Promise<JsQR>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/node_modules/jsqr/dist/jsQR.js';
    script.onload = () => {
      const found = (window as unknown as { jsQR?: JsQR }).jsQR;
      if (found) resolve(found);
      else reject(new Error('jsQR did not load'));
    };
    script.onerror = () => reject(new Error('could not load /node_modules/jsqr/dist/jsQR.js'));
    document.head.append(script);
  });
  return loading;
}

/**
 * Rasterises `svg` at `pixelsPerUnit` screen pixels per viewBox unit (one QR module is one unit), on white with `margin`
 * extra units of white around it, and returns the text jsQR decodes, or null when it finds no code.
 */
export async function readQrCode(svg: SVGSVGElement, pixelsPerUnit = 6, margin = 4): Promise<string | null> {
  const jsQR = await loadJsQR();
  const [, , w = 0, h = 0] = (svg.getAttribute('viewBox') ?? '').split(/\s+/).map(Number);
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(w * pixelsPerUnit));
  clone.setAttribute('height', String(h * pixelsPerUnit));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(clone)], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const pad = margin * pixelsPerUnit;
    const canvas = document.createElement('canvas');
    canvas.width = w * pixelsPerUnit + pad * 2;
    canvas.height = h * pixelsPerUnit + pad * 2;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.imageSmoothingEnabled = false;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image, pad, pad, w * pixelsPerUnit, h * pixelsPerUnit);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(data.data, data.width, data.height)?.data ?? null;
  } finally {
    URL.revokeObjectURL(url);
  }
}
