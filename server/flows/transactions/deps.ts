// What flows of transactions need from the process, shared by the modules of this folder.
import type { Deps } from '../../deps';

export type TxDeps = Pick<Deps, 'clock' | 'rates' | 'config' | 'settlement' | 'chains' | 'pix'>;
