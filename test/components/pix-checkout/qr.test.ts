// The QR symbol and the BR Code the mocks hand out (the server's builder): a code a bank app can read (CRC16 of the EMV payload), drawn as one path that reads back to the same text.
import { expect } from '@open-wc/testing';
import { qrSymbol, QUIET_ZONE } from '../../../src/components/pix-checkout/qr';
import { brCode, crc16 } from '../../../server/domain/brcode';

/** The EMV example from the BR Code manual (open amount). */
const EXAMPLE_BR_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
import { readQrCode } from '../support/qr-reader';

function svgOf(text: string): SVGSVGElement {
  const { size, path } = qrSymbol(text);
  const side = size + QUIET_ZONE * 2;
  const holder = document.createElement('div');
  holder.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}"><rect width="${side}" height="${side}" fill="#fff"/><path transform="translate(${QUIET_ZONE} ${QUIET_ZONE})" d="${path}" fill="#000"/></svg>`;
  return holder.firstElementChild as SVGSVGElement;
}

describe('BR Code (the one builder, server/domain/brcode.ts)', () => {
  it('computes the CRC of the BR Code manual’s example', () => {
    expect(crc16(EXAMPLE_BR_CODE.slice(0, -4))).to.equal(EXAMPLE_BR_CODE.slice(-4));
  });

  it('ends every code with the CRC16 of everything before it', () => {
    const code = brCode({ pixKey: 'a1b2c3d4-0000-4000-8000-000000000001', amount: '550.00', merchantName: 'Ramp Sandbox', merchantCity: 'SAO PAULO', txid: 'RAMP1' });
    expect(code).to.contain('5406550.00');
    expect(code.slice(-4)).to.equal(crc16(code.slice(0, -4)));
  });
});

describe('QR symbol', () => {
  it('the drawn symbol reads back to the same BR Code', async () => {
    const code = brCode({ pixKey: '123e4567-e12b-12d1-a456-426655440000', amount: '1234.56', merchantName: 'Ramp Sandbox', merchantCity: 'SAO PAULO', txid: 'RAMP0000000042' });
    expect(await readQrCode(svgOf(code))).to.equal(code);
  });

  it('is square with finder patterns in three corners and none in the fourth', () => {
    const { size, path } = qrSymbol(EXAMPLE_BR_CODE);
    expect(size % 4).to.equal(1); // 17 + 4·version
    expect(path.startsWith('M0 0h7v1h-7z')).to.equal(true); // the top-left finder's first row: seven dark modules
    expect(path).to.contain(`M${size - 7} 0h7v1h-7z`); // the top-right finder
    expect(path).not.to.contain(`M${size - 7} ${size - 1}h7`); // no finder bottom-right
  });
});
