import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import type { Settings } from '../../settings';
import { createSiteRepository } from './site-repository';
import { registerSiteRoutes } from './site-routes';
import { createSiteService, type SiteService } from './site-service';

/** The site: feature switches, banners and the customer-service link, seeded at first start. */
export async function registerSite(app: FastifyInstance, deps: { settings: Settings; database: DatabaseHandle }): Promise<SiteService> {
  const { settings } = deps;
  const repository = createSiteRepository(deps.database.db);
  await repository.seedDefaults({ banners: settings.defaultBanners, customerLink: settings.customerServiceLink, switchOverrides: settings.switchOverrides });
  const site = createSiteService(repository, { switchesCacheMs: settings.switchesCacheMs });
  registerSiteRoutes(app, site);
  return site;
}
