// Identifiers: UUIDv7 for every row (time-ordered), request ids for logs and problems.
import { randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';

/**
 * The CSPRNG read 4 kB at a time: uuidv7's own source refills 32 bytes through WebCrypto every two or three ids, and a
 * customer read makes two (a request id and a link id).
 */
class PooledRandom {
  private readonly pool = new Uint32Array(1024);
  private cursor = this.pool.length;

  nextUint32(): number {
    if (this.cursor === this.pool.length) {
      randomFillSync(this.pool);
      this.cursor = 0;
    }
    return this.pool[this.cursor++]!;
  }
}

// One generator for the process: its ids increase monotonically, even within a millisecond.
const generator = new V7Generator(new PooledRandom());

export const newId = (): string => generator.generate().toString();
export const newRequestId = (): string => `req_${generator.generate().toHex()}`;
export const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
