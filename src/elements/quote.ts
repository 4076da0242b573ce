// Bundler entry and lazy chunk of <ramp-quote>: importing it registers the tag (once) and exports the class.
import { RampQuote } from '../components/quote/quote';
import { defineOnce } from './define-once';

defineOnce('ramp-quote', RampQuote);

export { RampQuote };
