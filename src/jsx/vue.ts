// Vue 3 typings (`import 'ramp-elements/vue'`): every <ramp-*> tag in GlobalComponents, for template type checking
// (vue-tsc) and typed props. Vue sets a prop as a property when the element has it; `@ramp-error` (`onRampError` in a
// render function) listens to the DOM event.
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { RampTagName, RampTagProperties, RampTags } from './tags';

type Camel<S extends string> = S extends `${infer Head}-${infer Rest}` ? `${Capitalize<Head>}${Camel<Rest>}` : Capitalize<S>;
type VueEventProps<V extends keyof HTMLElementEventMap> = { [K in V as `on${Camel<K>}`]?: (event: HTMLElementEventMap[K]) => void };

/** A tag's props in Vue: the HTML ones (less those the element redefines), its properties and its events. */
export type RampVueProps<T extends RampTagName> = Omit<HTMLAttributes, RampTags[T]['props']> & RampTagProperties<T> & VueEventProps<RampTags[T]['events']> & PublicProps;

/** The shape Vue reads a component's template types from: `$props` and `$emit` (for the template only, not a ref). */
export type RampVueElement<T extends RampTagName> = new () => RampTags[T]['element'] & {
  $props: RampVueProps<T>;
  $emit: EmitFn<{ [K in RampTags[T]['events']]: (event: HTMLElementEventMap[K]) => void }>;
};

type RampGlobalComponents = { [T in RampTagName]: RampVueElement<T> };

declare module 'vue' {
  interface GlobalComponents extends RampGlobalComponents {}
}
