import type { FastifyInstance } from 'fastify';
import { appBannerList, getAllConfigStatusWeb, getCustomerLink } from '../../../src/shared/api/anonymous';
import { defineRoute } from '../../http/define-route';
import type { SiteService } from './site-service';

export function registerSiteRoutes(app: FastifyInstance, site: SiteService) {
  defineRoute(app, getAllConfigStatusWeb, () => site.configStatus());
  defineRoute(app, appBannerList, () => site.banners());
  defineRoute(app, getCustomerLink, () => site.customerLink());
}
