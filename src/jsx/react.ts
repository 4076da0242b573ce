// React 19 typings (`import 'ramp-elements/react'`): every <ramp-*> tag in JSX.IntrinsicElements. React 19 sets a prop
// as a property when the element has it (so `quote={…}` and `sandbox={false}` arrive as they are) and listens to
// `on<event-name>` props as DOM events: `onramp-error={(e) => e.detail.code}`.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { RampTagName, RampTagProperties, RampTags } from './tags';

type ReactEventProps<V extends keyof HTMLElementEventMap> = { [K in V as `on${K}`]?: (event: HTMLElementEventMap[K]) => void };

/** A tag's props in React: the HTML ones (less those the element redefines), its properties and its events. */
export type RampReactProps<T extends RampTagName> = Omit<DetailedHTMLProps<HTMLAttributes<RampTags[T]['element']>, RampTags[T]['element']>, RampTags[T]['props']> &
  RampTagProperties<T> &
  ReactEventProps<RampTags[T]['events']>;

type RampIntrinsicElements = { [T in RampTagName]: RampReactProps<T> };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends RampIntrinsicElements {}
  }
}
