import { TradeStatus } from '../../../src/shared/market/tradability';
import type { Kysely, Selectable } from 'kysely';
import { productTypeNumber, type Product } from '../../../src/shared/api/market';
import { formatFixed, type Bar, type KlinePeriod } from '../../../src/shared/market/kline';
import type { Executor } from '../../db/after-commit';
import type { Database, ProductTable } from '../../db/schema';
import type { ProductTerms } from '../../../src/shared/market/product-fields';
import type { Instrument } from './catalogue';
import { decimalToUnits } from './sources/market-data-source';
import { spreadUnitsOf } from './sources/simulator';

const decimalsOf = (step: string) => (step.split('.')[1] ?? '').length;

function productOf(row: Selectable<ProductTable>): Product {
  return {
    productCode: row.code,
    productName: row.name,
    productType: row.product_type,
    tradeStatus: row.trade_status === TradeStatus.tradable ? TradeStatus.tradable : TradeStatus.prohibited,
    pricePrecision: row.price_precision,
    pip: row.volume_step,
    multiple: row.leverage,
    minCount: row.min_lots,
    maxCount: row.max_lots,
    countNum: row.volume_decimals,
    logoUrl: row.logo_url,
    sort: row.sort,
    marketStartTime: row.market_start_time.map(Number),
    marketCloseTime: row.market_close_time.map(Number),
    contractSize: row.contract_size,
    spread: row.spread,
    feeRate: row.fee_rate,
    overnightRate: row.overnight_rate,
  };
}

/** Upserts bars in chunks on `executor` (the handle, or the fenced transaction). */
async function upsertBars(executor: Kysely<Database>, entries: readonly { symbol: string; period: KlinePeriod; precision: number; bar: Bar }[]) {
  const chunkSize = 500;
  for (let start = 0; start < entries.length; start += chunkSize) {
    const chunk = entries.slice(start, start + chunkSize);
    await executor
      .insertInto('kline')
      .values(
        chunk.map(({ symbol, period, precision, bar }) => ({
          symbol,
          period,
          open_time: bar.time,
          open_price: formatFixed(bar.open, precision),
          high_price: formatFixed(bar.high, precision),
          low_price: formatFixed(bar.low, precision),
          close_price: formatFixed(bar.close, precision),
          volume: formatFixed(bar.volume, 0),
          turnover: formatFixed(bar.turnover, precision),
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['symbol', 'period', 'open_time']).doUpdateSet((eb) => ({
          high_price: eb.ref('excluded.high_price'),
          low_price: eb.ref('excluded.low_price'),
          close_price: eb.ref('excluded.close_price'),
          volume: eb.ref('excluded.volume'),
          turnover: eb.ref('excluded.turnover'),
        })),
      )
      .execute();
  }
}

export function createMarketRepository(db: Kysely<Database>) {
  return {
    /** First start: the catalogue's products; an operator's later edits are kept. */
    async seedProducts(instruments: readonly Instrument[]) {
      await db
        .insertInto('product')
        .values(
          instruments.map((instrument, index) => ({
            code: instrument.code,
            name: instrument.name,
            product_type: productTypeNumber(instrument.type),
            trade_status: 1,
            price_precision: instrument.precision,
            volume_step: instrument.minLots,
            leverage: instrument.leverage,
            min_lots: instrument.minLots,
            max_lots: instrument.maxLots,
            volume_decimals: decimalsOf(instrument.minLots),
            logo_url: instrument.icon,
            sort: index + 1,
            market_start_time: instrument.hours.start,
            market_close_time: instrument.hours.close,
            contract_size: instrument.contractSize,
            spread: formatFixed(spreadUnitsOf(instrument), instrument.precision),
            fee_rate: instrument.feeRate,
            overnight_rate: instrument.overnightRate,
          })),
        )
        .onConflict((conflict) => conflict.column('code').doNothing())
        .execute();
    },

    async listProducts(): Promise<Product[]> {
      const rows = await db.selectFrom('product').selectAll().orderBy('sort').orderBy('code').execute();
      return rows.map(productOf);
    },

    /** One product, its row locked in the caller's transaction (a change of its terms). */
    async lockProduct(executor: Executor, code: string): Promise<Product | undefined> {
      const row = await executor.selectFrom('product').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();
      return row ? productOf(row) : undefined;
    },

    /** Writes a product's changeable terms (never its prices) and answers the product as stored. */
    async updateProductTerms(executor: Executor, code: string, terms: ProductTerms): Promise<Product> {
      const row = await executor
        .updateTable('product')
        .set({
          trade_status: terms.tradeStatus,
          spread: terms.spread,
          fee_rate: terms.feeRate,
          overnight_rate: terms.overnightRate,
          leverage: terms.multiple,
          min_lots: terms.minCount,
          max_lots: terms.maxCount,
        })
        .where('code', '=', code)
        .returningAll()
        .executeTakeFirstOrThrow();
      return productOf(row);
    },

    async countBars(symbol: string, period: KlinePeriod): Promise<number> {
      const row = await db
        .selectFrom('kline')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('symbol', '=', symbol)
        .where('period', '=', period)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Upserts bars (a forming bar is written again as it grows). With `fence` (the market
     * lease's), every chunk is written in one transaction that the fence opens: a leader whose
     * lease was taken over writes none of them.
     */
    async saveBars(entries: { symbol: string; period: KlinePeriod; precision: number; bar: Bar }[], fence?: (trx: Kysely<Database>) => Promise<void>) {
      if (entries.length === 0) return;
      if (fence) {
        await db.transaction().execute(async (trx) => {
          await fence(trx);
          await upsertBars(trx, entries);
        });
      } else await upsertBars(db, entries);
    },

    /** Bars in time order: the last `limit` before `toMs`, or all in [fromMs, toMs]. */
    async loadBars(query: { symbol: string; period: KlinePeriod; precision: number; fromMs?: number; toMs?: number; limit: number }): Promise<Bar[]> {
      let select = db
        .selectFrom('kline')
        .selectAll()
        .where('symbol', '=', query.symbol)
        .where('period', '=', query.period);
      if (query.fromMs !== undefined) select = select.where('open_time', '>=', query.fromMs);
      if (query.toMs !== undefined) select = select.where('open_time', '<=', query.toMs);
      const rows = await select.orderBy('open_time', 'desc').limit(query.limit).execute();
      const units = (value: string) => decimalToUnits(value, query.precision) ?? 0;
      return rows.reverse().map((row) => ({
        time: Number(row.open_time),
        open: units(row.open_price),
        high: units(row.high_price),
        low: units(row.low_price),
        close: units(row.close_price),
        volume: Number(row.volume),
        turnover: units(row.turnover),
      }));
    },
  };
}

export type MarketRepository = ReturnType<typeof createMarketRepository>;
