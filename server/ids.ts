// Identifiers: UUIDv7 for every row (time-ordered), request ids for logs and problems.
import { uuidv7 } from 'uuidv7';

export const newId = (): string => uuidv7();
export const newRequestId = (): string => `req_${uuidv7().replaceAll('-', '')}`;
export const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
