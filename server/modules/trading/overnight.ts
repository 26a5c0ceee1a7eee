import type { Kysely } from 'kysely';
import { formatMoney, minMoney, money } from '../../../src/shared/money/money';
import { overnightFeeFor } from '../../../src/shared/trading/order-rules';
import type { Book, Database } from '../../db/schema';
import type { MarketDataService } from '../market/market-data-service';
import type { Ledger } from '../ledger/ledger';
import type { TradingRepository } from './trading-repository';

/** Thrown to roll back an overnight charge whose day was charged already. */
const alreadyCharged = new Error('overnight fee already charged today');

/**
 * The daily rollover: every open position pays its product's overnight rate on its
 * notional, once per day (the journal's key), never more than the cash it has.
 */
export function createOvernightFees(deps: {
  db: Kysely<Database>;
  orders: TradingRepository;
  ledger: Ledger;
  market: MarketDataService;
  changed: (uid: number, book: Book) => void;
  /** Fences each charge's transaction under the jobs lease first (throws LeaseLostError when lost, ending the run). */
  fence?: (trx: Kysely<Database>) => Promise<void>;
}) {
  const { db, orders, ledger, market } = deps;

  /** Charges `day` (YYYY-MM-DD, UTC); answers how many positions paid. */
  async function chargeOvernight(day: string): Promise<number> {
    const open = await orders.allPositions();
    let charged = 0;
    for (const row of open) {
      const product = market.products().find((item) => item.productCode === row.symbol);
      if (!product) continue;
      const due = overnightFeeFor(money(String(row.open_price)), money(String(row.volume)), { contractSize: String(row.contract_size), overnightRate: product.overnightRate });
      if (due <= 0n) continue;
      const done = await db
        .transaction()
        .execute(async (trx) => {
          await deps.fence?.(trx);
          const fee = minMoney(due, await ledger.lockCash(trx, row.uid, row.book));
          if (fee <= 0n) return false;
          // Only a position still open pays: one closed since the list was read pays nothing.
          if (!(await orders.addOvernightFeeIn(trx, row.id, formatMoney(fee, 0)))) return false;
          const journal = await ledger.chargeOvernight(trx, { uid: row.uid, book: row.book, orderNo: row.order_no, day, fee });
          // Charged today already: the fee added above is rolled back with the transaction.
          if (journal.replayed) throw alreadyCharged;
          return true;
        })
        .catch((error: unknown) => {
          if (error === alreadyCharged) return false;
          throw error;
        });
      if (done) {
        charged += 1;
        deps.changed(row.uid, row.book);
      }
    }
    return charged;
  }

  return { chargeOvernight };
}
