import { config } from 'zod/mini';

/**
 * zod's English issue messages. zod/mini loads no locale (every message reads "Invalid
 * input"); in the browser only a refused brand config shows messages, so they are fetched
 * then, kept out of the first load. The server sets them at start (contract-problems.ts).
 * `config` by its own name: the browser builds take every `z.…` call for free of side effects.
 */
export async function loadZodEnglish(): Promise<void> {
  const { default: english } = await import('zod/v4/locales/en.js');
  config(english());
}
