// Bundler entry and lazy chunk of <ramp-offramp>: importing it registers the tag (once) and exports the class.
import { RampOfframp } from '../components/offramp/offramp';
import { defineOnce } from './define-once';

defineOnce('ramp-offramp', RampOfframp);

export { RampOfframp };
