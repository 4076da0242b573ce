// drizzle-kit: generates the committed SQL migrations from server/store/schema (npm run db:generate).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/store/schema/index.ts',
  out: './server/store/migrations',
});
