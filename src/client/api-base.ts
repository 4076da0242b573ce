// Where the BFF lives when a component is not told: `/bff` beside the folder the script was loaded from.

/** The bundle is served at `{origin}/sdk/ramp-widget.js`, so `../bff` from it is `{origin}/bff`. */
export function defaultApiBase(scriptUrl: string = import.meta.url): string {
  return new URL('../bff', scriptUrl).href;
}
