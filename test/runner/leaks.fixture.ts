// A test file that passes and leaves a listener open: the guard must end it and name the listener.
import { createServer } from 'node:http';
import { test } from 'node:test';

test('passes, and forgets to close its server', async () => {
  await new Promise<void>((resolve) => createServer().listen(0, '127.0.0.1', resolve));
});
