import type { Kysely } from 'kysely';
import type { BankWithdrawMeta } from '../../../src/shared/api/withdraw';
import { formatMoney, money, type Units } from '../../../src/shared/money/money';
import type { WithdrawalChannel, WithdrawalFeeType } from '../../../src/shared/money/withdrawal-quote';
import type { Database } from '../../db/schema';

/** A coin on one network, with its withdrawal terms, as the wallet module keeps it. */
export interface CoinNetworkTerms {
  id: number;
  currencyId: number;
  currencyCode: string;
  network: string;
  logoUrl: string;
  minWithdraw: Units | null;
  maxWithdraw: Units | null;
  feeType: WithdrawalFeeType;
  feeNum: Units;
  enabled: boolean;
}

export interface BankChannelTerms extends WithdrawalChannel {
  currencyId: number;
  enabled: boolean;
}

export function coinChannel(network: CoinNetworkTerms): WithdrawalChannel {
  return { minAmount: network.minWithdraw, maxAmount: network.maxWithdraw, feeType: network.feeType, feeNum: network.feeNum };
}

/** The bank card channel's terms (0017's one row); null when the brand has none. */
export async function bankChannelTerms(db: Kysely<Database>): Promise<BankChannelTerms | null> {
  const row = await db.selectFrom('bank_withdraw_channel').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) return null;
  return {
    currencyId: row.currency_id,
    minAmount: row.min_amount === null ? null : money(String(row.min_amount)),
    maxAmount: row.max_amount === null ? null : money(String(row.max_amount)),
    feeType: row.fee_type,
    feeNum: money(String(row.fee_num)),
    enabled: row.enabled,
  };
}

export function bankMetaView(terms: BankChannelTerms, currencyCode: string): BankWithdrawMeta {
  return {
    currencyId: terms.currencyId,
    currency: currencyCode,
    minWithdrawAmount: formatMoney(terms.minAmount ?? 0n),
    maxWithdrawAmount: formatMoney(terms.maxAmount ?? 0n),
    feeType: terms.feeType,
    feeNum: formatMoney(terms.feeNum),
  };
}
