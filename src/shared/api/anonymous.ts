import * as z from 'zod/mini';
import { switchesPath } from '../config/switches';
import { contract, noBody } from './contract';

/**
 * Anonymous calls under `/v1/wa-na/` (see `contract.ts` for what a contract holds).
 */

export const systemConfigItem = z.object({ name: z.string(), enable: z.boolean() });
export type SystemConfigItem = z.infer<typeof systemConfigItem>;

export const getAllConfigStatusWeb = contract(
  switchesPath,
  noBody,
  z.object({ items: z.array(systemConfigItem) }),
);

export const bannerRow = z.object({ bannerUrl: z.string() });
export type BannerRow = z.infer<typeof bannerRow>;

export const appBannerList = contract(
  '/v1/wa-na/appBanner/list',
  noBody,
  z.object({ rows: z.array(bannerRow) }),
);

export const customerLink = z.object({
  url: z.string(),
  telegram: z.string(),
  whatsapp: z.string(),
  email: z.string(),
  mode: z.int(),
});
export type CustomerLink = z.infer<typeof customerLink>;

export const getCustomerLink = contract('/v1/wa-na/getCustomerLink', noBody, customerLink);

