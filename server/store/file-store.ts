// The file store: document bytes by content hash. Local directory by default; the interface is small so S3 or GCS can replace it.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  sha256: string;
  size: number;
}

export interface FileStore {
  /** Streams `source` into the store; never holds the whole file in memory. Rejects (and keeps nothing) if `source` errors. */
  put(source: Readable): Promise<StoredFile>;
  open(sha256: string): Promise<Readable | undefined>;
}

export class LocalFileStore implements FileStore {
  constructor(private readonly dir: string) {}

  async put(source: Readable): Promise<StoredFile> {
    await mkdir(join(this.dir, 'tmp'), { recursive: true });
    const tmp = join(this.dir, 'tmp', randomBytes(12).toString('hex'));
    const hash = createHash('sha256');
    let size = 0;
    source.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
    });
    try {
      await pipeline(source, createWriteStream(tmp));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const sha256 = hash.digest('hex');
    const dest = this.path(sha256);
    await mkdir(join(this.dir, sha256.slice(0, 2)), { recursive: true });
    await rename(tmp, dest);
    return { sha256, size };
  }

  async open(sha256: string): Promise<Readable | undefined> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) return undefined;
    const p = this.path(sha256);
    return (await stat(p).catch(() => undefined)) ? createReadStream(p) : undefined;
  }

  private path(sha256: string): string {
    return join(this.dir, sha256.slice(0, 2), sha256);
  }
}
