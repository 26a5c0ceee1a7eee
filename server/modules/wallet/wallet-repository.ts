import type { Kysely } from 'kysely';
import type { Executor } from '../../db/after-commit';
import { money, type Units } from '../../../src/shared/money/money';
import type { Database, WithdrawFeeType } from '../../db/schema';

/** A currency a wallet can hold. */
export interface Currency {
  id: number;
  code: string;
  name: string;
  decimals: number;
  icon: string;
  /** The market product whose live price values it in USD; null when pegged to the USD. */
  priceProduct: string | null;
  transferFeeRate: Units;
  enabled: boolean;
  sort: number;
}

/** A currency on one network: the platform's deposit address, withdrawal bounds and fee. */
export interface CoinNetwork {
  id: number;
  currencyId: number;
  network: string;
  depositAddress: string;
  minWithdraw: Units;
  maxWithdraw: Units;
  withdrawFeeType: WithdrawFeeType;
  /** A percentage (0.5 = 0.5 %) or a fixed amount of the currency, by the fee type. */
  withdrawFee: Units;
  enabled: boolean;
}

/** The wallet module's SQL: the `currency` and `coin_network` tables. */
export function createWalletRepository(db: Kysely<Database>) {
  return {
    /** Every currency, by sort; `executor` a caller's transaction when it holds one (PGlite has one connection). */
    async currencies(executor: Executor = db): Promise<Currency[]> {
      const rows = await executor.selectFrom('currency').selectAll().orderBy('sort').orderBy('id').execute();
      return rows.map((row) => ({
        id: row.id,
        code: row.code,
        name: row.name,
        decimals: row.decimals,
        icon: row.icon,
        priceProduct: row.price_product,
        transferFeeRate: money(String(row.transfer_fee_rate)),
        enabled: row.enabled,
        sort: row.sort,
      }));
    },
    async coinNetworks(executor: Executor = db): Promise<CoinNetwork[]> {
      const rows = await executor.selectFrom('coin_network').selectAll().orderBy('currency_id').orderBy('id').execute();
      return rows.map((row) => ({
        id: row.id,
        currencyId: row.currency_id,
        network: row.network,
        depositAddress: row.deposit_address,
        minWithdraw: money(String(row.min_withdraw)),
        maxWithdraw: money(String(row.max_withdraw)),
        withdrawFeeType: row.withdraw_fee_type,
        withdrawFee: money(String(row.withdraw_fee)),
        enabled: row.enabled,
      }));
    },

    /** Locks a currency's row for a change in the caller's transaction; undefined when there is none. */
    async lockCurrency(trx: Executor, id: number) {
      return trx.selectFrom('currency').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },
    async currencyIdByCode(trx: Executor, code: string): Promise<number | undefined> {
      return (await trx.selectFrom('currency').select('id').where('code', '=', code).executeTakeFirst())?.id;
    },
    async insertCurrency(trx: Executor, row: CurrencyRow): Promise<number> {
      return (await trx.insertInto('currency').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updateCurrency(trx: Executor, id: number, row: Omit<CurrencyRow, 'code'>) {
      await trx.updateTable('currency').set(row).where('id', '=', id).execute();
    },
    async lockCoinNetwork(trx: Executor, id: number) {
      return trx.selectFrom('coin_network').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },
    async coinNetworkIdByName(trx: Executor, currencyId: number, network: string): Promise<number | undefined> {
      return (await trx.selectFrom('coin_network').select('id').where('currency_id', '=', currencyId).where('network', '=', network).executeTakeFirst())?.id;
    },
    async insertCoinNetwork(trx: Executor, row: CoinNetworkRow): Promise<number> {
      return (await trx.insertInto('coin_network').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updateCoinNetwork(trx: Executor, id: number, row: Omit<CoinNetworkRow, 'currency_id'>) {
      await trx.updateTable('coin_network').set(row).where('id', '=', id).execute();
    },
  };
}

/** A `currency` row as the back office writes it. */
export interface CurrencyRow {
  code: string;
  name: string;
  decimals: number;
  icon: string;
  price_product: string | null;
  transfer_fee_rate: string;
  enabled: boolean;
  sort: number;
}

/** A `coin_network` row as the back office writes it. */
export interface CoinNetworkRow {
  currency_id: number;
  network: string;
  deposit_address: string;
  min_withdraw: string;
  max_withdraw: string;
  withdraw_fee_type: WithdrawFeeType;
  withdraw_fee: string;
  enabled: boolean;
}

export type WalletRepository = ReturnType<typeof createWalletRepository>;
