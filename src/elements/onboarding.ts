// Bundler entry and lazy chunk of <ramp-onboarding>: importing it registers the tag (once) and exports the class.
import { RampOnboarding } from '../components/onboarding/onboarding';
import { defineOnce } from './define-once';

defineOnce('ramp-onboarding', RampOnboarding);

export { RampOnboarding };
