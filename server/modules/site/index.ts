import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import type { Settings } from '../../settings';
import type { Brand, BrandSeed } from '../../brand/brand-folder';
import { createBrandPages } from './brand-pages';
import { createSiteRepository } from './site-repository';
import { registerSiteRoutes } from './site-routes';
import { createSiteService, type SiteService } from './site-service';

/**
 * The site: feature switches, banners, the customer-service link and the brand's static pages; seeded at first start
 * from the brand; `firstStart` tells the modules that seed the brand's fees and limits.
 */
export async function registerSite(
  app: FastifyInstance,
  deps: { settings: Settings; database: DatabaseHandle; seed: Pick<BrandSeed, 'switches' | 'banners'>; brand: Pick<Brand, 'pages' | 'defaultLanguage'> },
): Promise<{ site: SiteService; firstStart: boolean }> {
  const { settings, seed } = deps;
  const repository = createSiteRepository(deps.database.db);
  const { firstStart } = await repository.seedDefaults({
    banners: seed.banners,
    customerLink: settings.customerServiceLink,
    brandSwitches: seed.switches,
    switchOverrides: settings.switchOverrides,
  });
  const site = createSiteService(repository, { switchesCacheMs: settings.switchesCacheMs });
  registerSiteRoutes(app, site, createBrandPages(deps.brand.pages, deps.brand.defaultLanguage));
  return { site, firstStart };
}
