// Bundler entry and lazy chunk of <ramp-pix-checkout>: importing it registers the tag (once) and exports the class.
import { RampPixCheckout } from '../components/pix-checkout/pix-checkout';
import { defineOnce } from './define-once';

defineOnce('ramp-pix-checkout', RampPixCheckout);

export { RampPixCheckout };
