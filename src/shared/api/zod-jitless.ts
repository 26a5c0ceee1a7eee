import { config } from 'zod/mini';

/**
 * Imported first by the browser entries (page and workers). Under the app's content
 * security policy (no 'unsafe-eval') zod's probe for a JIT (`Function('')`) is refused and
 * reported as a policy violation. zod/mini's objects never compile a parser, so the probe
 * does not run today; this keeps it off should a schema kind that compiles (classic
 * objects, `z.compile`) ever reach the browser. The server does not import it. Called by its
 * own name: the browser builds take every `z.…` call for free of side effects (vite.config.ts).
 */
config({ jitless: true });
