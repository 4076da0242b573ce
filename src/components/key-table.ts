// A table of message keys that are one prefix and the name they stand for, typed to the letter so `t()` checks them.
export const keyTable = <const P extends string, const N extends string>(prefix: P, names: readonly N[]) =>
  Object.fromEntries(names.map((name) => [name, prefix + name])) as { readonly [K in N]: `${P}${K}` };
