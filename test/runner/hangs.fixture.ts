// A test file whose test never settles and which keeps the process alive: the file deadline must end it.
import { test } from 'node:test';

test('waits forever', async () => {
  setInterval(() => {}, 1000);
  await new Promise(() => {});
});
