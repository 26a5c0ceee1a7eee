import { z } from 'zod';

/**
 * Anonymous calls under `/v1/wa-na/`. Each contract names its path, the request body
 * schema (strict: unknown fields are rejected) and the `data` schema of its answer.
 * The server validates requests with `body`; the app parses answers with `data`.
 */
export interface ApiContract<TBody extends z.ZodType, TData extends z.ZodType> {
  path: string;
  body: TBody;
  data: TData;
}

function contract<TBody extends z.ZodType, TData extends z.ZodType>(
  path: string,
  body: TBody,
  data: TData,
): ApiContract<TBody, TData> {
  return { path, body, data };
}

const noBody = z.strictObject({});

export const systemConfigItem = z.object({ name: z.string(), enable: z.boolean() });
export type SystemConfigItem = z.infer<typeof systemConfigItem>;

export const getAllConfigStatusWeb = contract(
  '/v1/wa-na/system/systemConfig/getAllConfigStatusWeb',
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
  mode: z.number().int(),
});
export type CustomerLink = z.infer<typeof customerLink>;

export const getCustomerLink = contract('/v1/wa-na/getCustomerLink', noBody, customerLink);

export type AnyContract = ApiContract<z.ZodType, z.ZodType>;
export type BodyOf<C> = C extends ApiContract<infer B, z.ZodType> ? z.input<B> : never;
export type DataOf<C> = C extends ApiContract<z.ZodType, infer D> ? z.output<D> : never;
