// Bundler entry and lazy chunk of <ramp-verification>: importing it registers the tag (once) and exports the class.
import { RampVerification } from '../components/verification/verification';
import { defineOnce } from './define-once';

defineOnce('ramp-verification', RampVerification);

export { RampVerification };
