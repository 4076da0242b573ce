// Registering a tag at most once: the first definition wins, so a second copy of the SDK (or of a bundler entry) is harmless.

/** Defines `tag` unless it is already taken (by us or by another script); never throws for a taken tag. */
export function defineOnce(tag: string, constructor: CustomElementConstructor, registry: CustomElementRegistry = customElements): void {
  if (!registry.get(tag)) registry.define(tag, constructor);
}
