import type { AccountBalance } from '../../../src/shared/api/account';
import { formatMoney } from '../../../src/shared/money/money';
import type { TradingBalances } from '../ledger/ledger';

/**
 * An account's balance as the wire carries it: what `user/balance` answers and what the
 * positions feed pushes (its 'account' message), from the one ledger read `tradingBalances`.
 * `lockMargin` is everything locked: open orders' margin and running options' amounts
 * (the user's money until settlement), so available plus locked is the whole balance.
 */
export function accountBalanceView(balances: TradingBalances): AccountBalance {
  return { balanceAmount: formatMoney(balances.cash), lockMargin: formatMoney(balances.margin + balances.optionEscrow) };
}
