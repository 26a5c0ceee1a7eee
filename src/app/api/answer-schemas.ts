// First: the content security policy forbids eval (see the module). It shares zod's chunk
// (vite.config.ts), so that wherever the page loads zod, the setting comes before any schema.
import '../../shared/api/zod-jitless';

/** What the request client checks every answer with, loaded with the first answer (http-client.ts). */
export { envelopeSchema } from '../../shared/api/envelope';
