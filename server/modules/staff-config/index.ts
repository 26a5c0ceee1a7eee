import {
  configBanners,
  configCurrencies,
  configSetCoinNetwork,
  configSetCurrency,
  configOptionProducts,
  configProducts,
  configServiceLink,
  configSetBanners,
  configSetOptionProduct,
  configSetProduct,
  configSetServiceLink,
  configSetSwitch,
  configSwitches,
} from '../../../src/shared/api/staff';
import { inTransaction } from '../../db/after-commit';
import type { ProposalsService } from '../config-proposals';
import type { DatabaseHandle } from '../../db/database';
import type { MarketDataService } from '../market/market-data-service';
import type { OptionsService } from '../options/options-service';
import type { SiteService } from '../site/site-service';
import type { StaffAudit, StaffRoutes } from '../staff';
import type { WalletService } from '../wallet';

/**
 * The back office's configuration (admin): feature switches, products' terms, option
 * products, banners, the customer-service link, and the wallets' currencies with their networks. Each owner module validates and writes
 * its own table; the change and its one audit row (before and after) share one
 * transaction. Nothing here sets a price, a fill or an outcome: products' terms only.
 * What moves money — a currency's valuation and fee, a product's fees, spread, overnight
 * rate and leverage, an option product's fee and payout rates — is dual-controlled: the
 * set-call proposes it, and it is applied only when a second admin approves
 * (config-proposals). Switches, banners and links stay single-admin.
 */
export function registerStaffConfig(deps: {
  database: DatabaseHandle;
  staffRoutes: StaffRoutes;
  audit: StaffAudit;
  site: SiteService;
  market: Pick<MarketDataService, 'products' | 'setProductTerms'>;
  options: Pick<OptionsService, 'allProducts' | 'setProduct'>;
  wallet: Pick<WalletService, 'staffCurrencies' | 'setCurrency' | 'setCoinNetwork'>;
  proposals: Pick<ProposalsService, 'registerKind' | 'propose'>;
}) {
  const { staffRoutes, audit, site, market, options, wallet, proposals } = deps;
  const db = deps.database.db;

  staffRoutes.route(configSwitches, async () => site.configStatus());
  staffRoutes.route(configSetSwitch, async ({ name, enable }, request) => {
    await inTransaction(db, async (trx) => {
      const change = await site.setSwitch(trx, name, enable);
      await audit.record(trx, request.staff, { action: 'config.setSwitch', targetType: 'switch', targetId: name, ...change });
    });
    return null;
  });

  staffRoutes.route(configProducts, async () => ({ list: market.products() }));
  proposals.registerKind('product', {
    body: configSetProduct.body,
    action: 'config.setProduct',
    targetType: 'product',
    target: (payload) => payload.productCode,
    apply: (trx, { productCode, fields }) => market.setProductTerms(trx, productCode, fields),
  });
  staffRoutes.route(configSetProduct, (body, request) => proposals.propose(request.staff, 'product', body));

  staffRoutes.route(configOptionProducts, async () => ({ list: await options.allProducts() }));
  proposals.registerKind('optionProduct', {
    body: configSetOptionProduct.body,
    action: 'config.setOptionProduct',
    targetType: 'optionProduct',
    target: (payload) => String(payload.id),
    apply: (trx, payload) => options.setProduct(trx, payload),
  });
  staffRoutes.route(configSetOptionProduct, (body, request) => proposals.propose(request.staff, 'optionProduct', body));

  staffRoutes.route(configBanners, async () => ({ rows: await site.allBanners() }));
  staffRoutes.route(configSetBanners, async ({ rows }, request) => {
    await inTransaction(db, async (trx) => {
      const change = await site.setBanners(trx, rows);
      await audit.record(trx, request.staff, { action: 'config.setBanners', targetType: 'banners', targetId: null, ...change });
    });
    return null;
  });

  staffRoutes.route(configServiceLink, async () => ({ value: await site.customerLinkSetting() }));
  staffRoutes.route(configSetServiceLink, async ({ value }, request) => {
    await inTransaction(db, async (trx) => {
      const change = await site.setCustomerLinkSetting(trx, value);
      await audit.record(trx, request.staff, { action: 'config.setServiceLink', targetType: 'serviceLink', targetId: null, ...change });
    });
    return null;
  });

  // Currencies and their networks: terms only; no balance and no price moves.
  staffRoutes.route(configCurrencies, async () => ({ list: await wallet.staffCurrencies() }));
  proposals.registerKind('currency', {
    body: configSetCurrency.body,
    action: 'config.setCurrency',
    targetType: 'currency',
    // A new currency has no id yet: its code names it.
    target: (payload) => (payload.id === undefined ? payload.code : String(payload.id)),
    apply: async (trx, payload) => {
      const { id, before, after } = await wallet.setCurrency(trx, payload);
      return { before, after, targetId: String(id) };
    },
  });
  staffRoutes.route(configSetCurrency, (body, request) => proposals.propose(request.staff, 'currency', body));
  // A network's deposit address says where customers' money goes, and its fees what they pay: dual control too.
  proposals.registerKind('coinNetwork', {
    body: configSetCoinNetwork.body,
    action: 'config.setCoinNetwork',
    targetType: 'coinNetwork',
    // A new network has no id yet: its currency and name name it.
    target: (payload) => (payload.id === undefined ? `${payload.currencyId}:${payload.network}` : String(payload.id)),
    apply: async (trx, payload) => {
      const { id, before, after } = await wallet.setCoinNetwork(trx, payload);
      return { before, after, targetId: String(id) };
    },
  });
  staffRoutes.route(configSetCoinNetwork, (body, request) => proposals.propose(request.staff, 'coinNetwork', body));
}
