// The uploader's file checks, as the server checks: type by the first bytes (never the name or MIME type), size before reading.
import { expect } from '@open-wc/testing';
import { checkFile, formatBytes, IMAGE_KINDS, sniffKind } from '../../../src/components/document-uploader/file-check';
import { parseTypes, requirementOf, sidesFor, typesFor } from '../../../src/components/document-uploader/requirements';
import { MAX_DOCUMENT_BYTES } from '../../../src/contract/documents';
import { sampleFiles } from '../mocks/kyc-scenarios';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('file checks', () => {
  it('JPG, PNG and PDF are recognised by their signatures', () => {
    expect(sniffKind(bytes(0xff, 0xd8, 0xff, 0xe0))).to.equal('jpg');
    expect(sniffKind(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).to.equal('png');
    expect(sniffKind(new TextEncoder().encode('%PDF-1.7'))).to.equal('pdf');
    expect(sniffKind(bytes(0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0)), 'a PNG signature cut short is no PNG').to.equal(undefined);
    expect(sniffKind(new TextEncoder().encode('GIF89a'))).to.equal(undefined);
  });

  it('the name and the declared type do not count: a text file called .pdf is refused', async () => {
    expect(await checkFile(sampleFiles.fakePdf('contract.pdf'))).to.equal('badType');
    expect(await checkFile(new File(['%PDF-1.4'], 'no-extension', { type: 'text/plain' }))).to.equal(undefined);
  });

  it('over 50 MB is refused without reading a byte; empty files are refused too', async () => {
    const big = new File(['%PDF'], 'big.pdf');
    Object.defineProperty(big, 'size', { value: MAX_DOCUMENT_BYTES + 1 });
    big.slice = () => {
      throw new Error('read');
    };
    expect(await checkFile(big)).to.equal('tooLarge');
    expect(await checkFile(new File([], 'empty.pdf'))).to.equal('empty');
  });

  it('a selfie must be an image: a PDF is refused where only JPG and PNG go', async () => {
    expect(await checkFile(sampleFiles.pdf(), { kinds: IMAGE_KINDS })).to.equal('badType');
    expect(await checkFile(sampleFiles.jpg(), { kinds: IMAGE_KINDS })).to.equal(undefined);
  });

  it('sizes read in the user’s language', () => {
    expect(formatBytes(19, 'en')).to.equal('19 bytes');
    expect(formatBytes(19, 'pt-BR')).to.equal('19 bytes');
    expect(formatBytes(1536, 'en')).to.equal('1.5 kB');
    expect(formatBytes(5 * 1024 * 1024, 'pt-BR')).to.equal('5 MB');
  });
});

describe('requirement slots', () => {
  it('an identity requirement offers its accepted types; ID card and driver’s license go front and back', () => {
    expect(typesFor({ name: 'ID_CARD', status: 'NOT_SENT', acceptedTypes: ['ID_CARD', 'PASSPORT', 'DRIVERS_LICENSE'] })).to.deep.equal([
      'ID_CARD',
      'PASSPORT',
      'DRIVERS_LICENSE',
    ]);
    expect(typesFor({ name: 'BANK_STATEMENT', status: 'NOT_SENT' })).to.deep.equal(['BANK_STATEMENT']);
    expect(sidesFor('ID_CARD')).to.deep.equal(['FRONT_SIDE', 'BACK_SIDE']);
    expect(sidesFor('DRIVERS_LICENSE')).to.deep.equal(['FRONT_SIDE', 'BACK_SIDE']);
    expect(sidesFor('PASSPORT')).to.deep.equal([]);
  });

  it('`types` takes requirement names or document types, spaces or commas', () => {
    expect(parseTypes('bank_statement, PASSPORT')).to.deep.equal(['BANK_STATEMENT', 'PASSPORT']);
    expect(parseTypes('  ')).to.equal(undefined);
    expect(requirementOf('PASSPORT')).to.equal('ID_CARD');
    expect(requirementOf('DIRECTORS_REGISTRY')).to.equal('DIRECTORS_REGISTRY');
  });
});
