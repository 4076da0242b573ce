// The base of every component event: it bubbles and is composed, so the host's page (and `document`) hears it.

/** A component event's class: its name, and a constructor that takes the detail. */
export interface RampEventClass<N extends string> {
  readonly eventName: N;
  new <D>(detail: D): CustomEvent<D>;
}

export function rampEvent<const N extends string>(eventName: N, init: { cancelable?: boolean } = {}): RampEventClass<N> {
  return class<D> extends CustomEvent<D> {
    static readonly eventName = eventName;
    constructor(detail: D) {
      super(eventName, { detail, bubbles: true, composed: true, ...init });
    }
  };
}
