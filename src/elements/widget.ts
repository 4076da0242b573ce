// Bundler entry and lazy chunk of <ramp-widget>: importing it registers the tag (once) and exports the class; the inner
// components' chunks load when their views open.
import { RampWidget } from '../components/widget/widget';
import { defineOnce } from './define-once';

defineOnce('ramp-widget', RampWidget);

export { RampWidget };
