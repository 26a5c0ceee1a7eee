import type { AccountBalance } from '../api/account';
import { formatMoney, money } from './money';

/**
 * The account's total balance as the top bar and the user hub show it: the available
 * balance plus what is locked (positions' margin and running options' amounts), exactly,
 * as a decimal string with at least two decimals.
 */
export function totalBalance(balance: AccountBalance): string {
  return formatMoney(money(balance.balanceAmount) + money(balance.lockMargin));
}

/**
 * Everything the customer owns, in USD, as the wallet page shows it: the currency wallets'
 * worth plus the trading account's total balance (available and locked). The wallet page's
 * "Total assets" is exactly its two lines below, "Wallets" and "Trading account", added up;
 * the trading account is not counted until it is known.
 */
export function totalAssets(walletsUsd: string, account: AccountBalance | null): string {
  return formatMoney(money(walletsUsd) + (account ? money(totalBalance(account)) : 0n));
}
