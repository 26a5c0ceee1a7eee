import type { DatabaseHandle } from '../db/database';
import type { MarketDataService } from './market/market-data-service';
import type { Settings } from '../settings';
import type { Ledger } from './ledger/ledger';

/** What every module is built from. */
export interface ModuleBase {
  settings: Settings;
  database: DatabaseHandle;
}

/** What the modules that move money share besides: the ledger, the server's own prices and its clock. */
export interface MoneyModuleBase extends ModuleBase {
  ledger: Ledger;
  market: MarketDataService;
  nowMs?: (() => number) | undefined;
}
