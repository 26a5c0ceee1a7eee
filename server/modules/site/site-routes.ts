import type { FastifyInstance } from 'fastify';
import { appBannerList, getAllConfigStatusWeb, getBrandPage, getCustomerLink } from '../../../src/shared/api/anonymous';
import { defineRoute } from '../../http/define-route';
import type { createBrandPages } from './brand-pages';
import type { SiteService } from './site-service';

export function registerSiteRoutes(app: FastifyInstance, site: SiteService, pages: ReturnType<typeof createBrandPages>) {
  defineRoute(app, getAllConfigStatusWeb, () => site.configStatus());
  defineRoute(app, appBannerList, () => site.banners());
  defineRoute(app, getCustomerLink, () => site.customerLink());
  defineRoute(app, getBrandPage, async (body) => pages.page(body));
}
