import type { Ledger } from '../ledger/ledger';
import type { WalletService } from '../wallet';
import type { WithdrawalLedger, WithdrawalWallet } from './withdrawals-service';

/** The ledger's withdrawal verbs and the wallet balance withdrawals read. */
export function withdrawalLedger(ledger: Ledger): WithdrawalLedger {
  return {
    holdWithdrawal: async (trx, hold) => {
      await ledger.holdWithdrawal(trx, hold);
    },
    payWithdrawal: (trx, payout) => ledger.payWithdrawal(trx, payout),
    releaseWithdrawal: (trx, release) => ledger.releaseWithdrawal(trx, release),
    walletAvailable: async (uid, currency) => (await ledger.walletBalances(uid)).get(currency) ?? 0n,
  };
}

/**
 * The wallet module as withdrawals see it: its coin networks with their withdrawal terms, and
 * a currency's USD rate at the bid (what the house would pay for it: a withdrawal's worth).
 */
export function withdrawalWallet(wallet: WalletService): WithdrawalWallet {
  return {
    async currencyCode(currencyId) {
      return (await wallet.currencies()).find((currency) => currency.id === currencyId)?.code ?? null;
    },
    async coinNetworks() {
      const [currencies, networks] = await Promise.all([wallet.currencies(), wallet.coinNetworks()]);
      const byId = new Map(currencies.map((currency) => [currency.id, currency]));
      return networks.flatMap((network) => {
        const currency = byId.get(network.currencyId);
        if (!currency) return [];
        return [
          {
            id: network.id,
            currencyId: currency.id,
            currencyCode: currency.code,
            network: network.network,
            logoUrl: currency.icon,
            minWithdraw: network.minWithdraw,
            maxWithdraw: network.maxWithdraw,
            feeType: network.withdrawFeeType,
            feeNum: network.withdrawFee,
            enabled: network.enabled && currency.enabled,
          },
        ];
      });
    },
    usdRate: async (currencyId) => (await wallet.usdRate(currencyId)).bid,
  };
}
