// What the loader asks for when one of its tags appears: the messages of the language that element speaks. A chunk of
// its own, imported on demand, so that the loader has no static import (it runs as soon as it arrives) and needs no
// namespace object from a shared chunk.
import { loadMessages } from './catalogue';
import { resolveLocale } from './locale';

export function loadMessagesFor(element: Element): Promise<void> {
  return loadMessages(resolveLocale(element));
}
