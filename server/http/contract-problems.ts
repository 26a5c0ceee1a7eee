import english from 'zod/v4/locales/en.js';
import * as z from 'zod/mini';

// The contracts are zod/mini, which loads no messages (each would read "Invalid input"); the
// server answers zod's English ones, as it did when the contracts were classic zod.
z.config(english());

/** A refused body's problems as the 1001 answer lists them: `path: message`, `whole` naming the body itself. */
export function contractProblems(error: z.core.$ZodError, whole: string): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || whole}: ${issue.message}`);
}
