import { z } from 'zod';

/**
 * Imported first by the browser entries (page and workers). Under the app's content
 * security policy (no 'unsafe-eval') zod's probe for a JIT (`Function('')`) is refused and
 * reported as a policy violation; the interpreter it then falls back to is used from the
 * start instead. The server does not import this and keeps the JIT.
 */
z.config({ jitless: true });
