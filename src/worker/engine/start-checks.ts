import { getAllConfigStatusWeb } from '../../shared/api/anonymous';
import { envelopeSchema } from '../../shared/api/envelope';
import { parseBrandConfig, type BrandConfigResult } from '../../shared/config/brand-config';
import type { SwitchesCheck } from '../../shared/config/switches';
import { successCode } from '../../shared/errors/success-code';

/**
 * The checks of what a tab reads before its first screen: the brand's config.json and the
 * server's switches. The tab fetches them and the engine checks them, with the schemas and
 * zod it holds anyway for what it parses, so that the page's first load holds no schema
 * (tests/unit/build/budgets.ts).
 */

/**
 * config.json as the tab read it: the config with its defaults, or its problems (in zod/mini's
 * words, "Invalid input": a tab that shows them reads the config again with the English
 * messages, which no start loads; boot.tsx).
 */
export function checkBrandConfig(input: unknown): BrandConfigResult {
  return parseBrandConfig(input);
}

/** The switches call's answer, envelope and all, as the request client answered it (`answerOf`). */
export function checkSwitchesAnswer(answer: unknown): SwitchesCheck {
  const envelope = envelopeSchema.safeParse(answer);
  if (!envelope.success) return { ok: false, problem: 'malformed answer' };
  if (envelope.data.code !== successCode) return { ok: false, problem: `code ${envelope.data.code}` };
  const data = getAllConfigStatusWeb.data.safeParse(envelope.data.data);
  return data.success ? { ok: true, items: data.data.items } : { ok: false, problem: 'malformed answer' };
}
