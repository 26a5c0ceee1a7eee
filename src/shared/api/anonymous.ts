import * as z from 'zod/mini';
import { brandPageNames } from '../config/brand-pages';
import { switchesPath } from '../config/switches';
import { languages, type LanguageCode } from '../i18n/languages';
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


/** A static page of the brand in the reader's language (or the brand's default when it has none in it). */
export const brandPageBody = z.strictObject({
  page: z.enum(brandPageNames),
  lang: z.enum(languages.map((language) => language.code) as [LanguageCode, ...LanguageCode[]]),
});

export const brandPageData = z.object({
  page: z.enum(brandPageNames),
  /** The language the page is written in: the one asked for, or the brand's default. */
  lang: z.string(),
  title: z.string(),
  sections: z.array(z.object({ heading: z.optional(z.string()), paragraphs: z.array(z.string()) })),
});
export type BrandPageData = z.infer<typeof brandPageData>;

export const getBrandPage = contract('/v1/wa-na/brand/page', brandPageBody, brandPageData);
