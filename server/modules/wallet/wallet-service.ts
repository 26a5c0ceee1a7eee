import type { Kysely } from 'kysely';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { isPriceFresh } from '../../../src/shared/market/price-freshness';
import type { TransformBody, TransformCalculateBody, WalletBalanceData, WalletRecordMovement, WalletRecordsBody, WalletRecordsData } from '../../../src/shared/api/wallet';
import { formatMoney, money, multiplyMoney, type Units } from '../../../src/shared/money/money';
import { parseTransferAmount, quoteStillHolds, quoteTransfer, transferAmountUnit, transferDecimals, TransferType, type TransferQuote } from '../../../src/shared/money/transfer-quote';
import type { Executor } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { JournalKind } from '../ledger/ledger-kinds';
import type { Ledger } from '../ledger/ledger';
import type { MarketDataService } from '../market/market-data-service';
import { quotePrice } from '../trading/order-view';
import type { CoinNetwork, Currency, WalletRepository } from './wallet-repository';
import type { ConfigSetCoinNetworkBody, ConfigSetCurrencyBody, StaffCoinNetwork, StaffCurrency } from '../../../src/shared/api/staff';
import { coinNetworkTermsViolation, currencyTermsViolation, isValuationSourceOf, withdrawFeeTypes, type WithdrawFeeTypeName } from '../../../src/shared/money/currency-config';

/** USD per unit of a currency, as the market quotes it now: the bid the house buys at, the ask it sells at. */
export interface UsdRate {
  bid: Units;
  ask: Units;
  timeMs: number;
}

const one = money('1');
const centUnits = 10n ** 6n;
const pegged: Omit<UsdRate, 'timeMs'> = { bid: one, ask: one };

/** How a wallet record type reads a journal kind (0 in, 1 out, 2 anything else). */
function recordTypeOf(kind: JournalKind): 0 | 1 | 2 {
  if (kind === JournalKind.transferIn) return TransferType.in;
  if (kind === JournalKind.transferOut) return TransferType.out;
  return 2;
}

/** What moved the wallet, for the record's label (a type 2 line is a deposit or a withdrawal, not a trade). */
function movementOf(kind: JournalKind): WalletRecordMovement {
  if (kind === JournalKind.transferIn) return 'transferIn';
  if (kind === JournalKind.transferOut) return 'transferOut';
  if (kind === JournalKind.walletDeposit) return 'deposit';
  if (kind === JournalKind.withdrawalHold) return 'withdrawal';
  if (kind === JournalKind.withdrawalRelease) return 'withdrawalReturned';
  return 'order';
}

/**
 * Wallets: the currencies a real account holds beside its USD trading cash, valued at the
 * market's live prices, and transfers between them and the trading cash (through the
 * ledger's verbs, at a quote the customer saw and that must still hold).
 */
export function createWalletService(deps: {
  db: Kysely<Database>;
  repository: WalletRepository;
  ledger: Ledger;
  market: Pick<MarketDataService, 'latestQuote' | 'products'>;
  stalePriceMs: number;
  nowMs: () => number;
}) {
  const { repository, ledger, market, nowMs } = deps;

  async function currencyById(id: number, code?: string, executor?: Executor): Promise<Currency> {
    const currency = (await repository.currencies(executor)).find((item) => item.id === id && item.enabled);
    // A code that does not name the id is a forged or stale draft: the same answer as an unknown id.
    if (!currency || (code !== undefined && currency.code !== code)) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND);
    return currency;
  }

  /** The live USD rate of a currency; a price older than the stale limit (or none) refuses (202). */
  function rateOf(currency: Currency): UsdRate {
    if (currency.priceProduct === null) return { ...pegged, timeMs: nowMs() };
    const product = market.products().find((item) => item.productCode === currency.priceProduct);
    const quote = market.latestQuote(currency.priceProduct);
    if (!product || !quote || !isPriceFresh(quote.timeMs, nowMs(), deps.stalePriceMs)) throw new AppError(ErrorCode.GET_CURRENT_PRICE_ERROR);
    return { bid: quotePrice(quote.bid, product.pricePrecision), ask: quotePrice(quote.ask, product.pricePrecision), timeMs: quote.timeMs };
  }

  function quoteFor(currency: Currency, type: TransferType, num: Units): TransferQuote {
    const rate = rateOf(currency);
    // The house buys the currency at its bid and sells it at its ask.
    return quoteTransfer({ type, num, feeRate: currency.transferFeeRate, price: type === TransferType.in ? rate.bid : rate.ask });
  }

  function amountOf(text: string): Units {
    const num = parseTransferAmount(text);
    if (num === null) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'a transfer amount above 0 with at most 4 decimals');
    return num;
  }

  const decimal = (units: Units) => formatMoney(units, 0);
  const currencyView = (currency: Currency): Omit<StaffCurrency, 'networks'> => ({
    id: currency.id,
    code: currency.code,
    name: currency.name,
    decimals: currency.decimals,
    icon: currency.icon,
    valuedByProduct: currency.priceProduct,
    transferFeeRate: decimal(currency.transferFeeRate),
    enabled: currency.enabled,
    sort: currency.sort,
  });
  const networkView = (network: CoinNetwork): StaffCoinNetwork => ({
    id: network.id,
    currencyId: network.currencyId,
    network: network.network,
    depositAddress: network.depositAddress,
    minWithdraw: decimal(network.minWithdraw),
    maxWithdraw: decimal(network.maxWithdraw),
    withdrawFeeType: network.withdrawFeeType,
    withdrawFee: decimal(network.withdrawFee),
    enabled: network.enabled,
  });
  const refuse = (problem: string) => new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, problem);

  const show = (units: Units) => formatMoney(units, transferDecimals);
  /** USD shown with 2 decimals, the rest dropped (a valuation never shows more than is there). */
  const usd = (units: Units) => formatMoney((units / centUnits) * centUnits, 2);

  return {
    currencies: () => repository.currencies(),
    coinNetworks: (): Promise<CoinNetwork[]> => repository.coinNetworks(),
    /** The live USD rate of a currency (refuses a stale price: 202). */
    async usdRate(currencyId: number): Promise<UsdRate> {
      return rateOf(await currencyById(currencyId));
    },

    /**
     * Every enabled currency's wallet, and a disabled one's while it still holds something (the
     * operator turning a coin off never hides money), valued at the live bid (a wallet holding
     * nothing needs no price), and their total.
     */
    async balances(uid: number): Promise<WalletBalanceData> {
      const [currencies, held] = await Promise.all([repository.currencies(), ledger.walletBalances(uid)]);
      let total = 0n;
      const list = currencies
        .filter((currency) => currency.enabled || (held.get(currency.code) ?? 0n) !== 0n)
        .map((currency) => {
          const balance = held.get(currency.code) ?? 0n;
          const worth = balance === 0n ? 0n : multiplyMoney(balance, rateOf(currency).bid);
          total += worth;
          return {
            currency: currency.code,
            currencyId: currency.id,
            unit: currency.code,
            balance: formatMoney(balance, 2),
            usdBalance: usd(worth),
            icon: currency.icon,
            decimals: currency.decimals,
          };
        });
      return { list, totalBalance: usd(total) };
    },

    /** The back office's view: every currency (enabled or not) with its networks. */
    async staffCurrencies(): Promise<StaffCurrency[]> {
      const [currencies, networks] = await Promise.all([repository.currencies(), repository.coinNetworks()]);
      return currencies.map((currency) => ({
        ...currencyView(currency),
        networks: networks.filter((network) => network.currencyId === currency.id).map(networkView),
      }));
    },

    /**
     * Adds a currency (no id) or changes one, in the caller's transaction; terms that break
     * the shared rule, a price product the market does not list, a code already used or a
     * changed code (ledger accounts are named by it) answer 1016. Never touches a balance.
     */
    async setCurrency(trx: Executor, body: ConfigSetCurrencyBody) {
      const terms = { ...body, icon: body.icon ?? '' };
      const violation = currencyTermsViolation(terms);
      if (violation) throw refuse(`${violation.field} ${violation.problem}`);
      if (terms.valuedByProduct !== null && !market.products().some((product) => product.productCode === terms.valuedByProduct)) {
        throw refuse(`valuedByProduct ${terms.valuedByProduct} is not a market product`);
      }
      const row = {
        name: terms.name,
        decimals: terms.decimals,
        icon: terms.icon,
        price_product: terms.valuedByProduct,
        transfer_fee_rate: decimal(money(terms.transferFeeRate)),
        enabled: terms.enabled,
        sort: terms.sort,
      };
      // Only a price of this very currency may value it: a dollar priced as a bitcoin would create money on every transfer.
      const requireValuationSource = () => {
        if (!isValuationSourceOf(terms.code, terms.valuedByProduct)) throw new AppError(ErrorCode.VALUATION_SOURCE_MISMATCH, `${terms.valuedByProduct} is not a price of ${terms.code}`);
      };
      const sameCode = await repository.currencyIdByCode(trx, terms.code);
      let id: number;
      let before: Omit<StaffCurrency, 'networks'> | null = null;
      if (body.id === undefined) {
        if (sameCode !== undefined) throw refuse(`code ${terms.code} is already a currency`);
        requireValuationSource();
        id = await repository.insertCurrency(trx, { code: terms.code, ...row });
      } else {
        id = body.id;
        if (!(await repository.lockCurrency(trx, id))) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no currency ${id}`);
        const current = (await repository.currencies(trx)).find((item) => item.id === id);
        if (!current) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no currency ${id}`);
        if (current.code !== terms.code) throw refuse('code of an existing currency cannot change');
        requireValuationSource();
        before = currencyView(current);
        await repository.updateCurrency(trx, id, row);
      }
      const after = (await repository.currencies(trx)).find((item) => item.id === id);
      return { id, before, after: after ? currencyView(after) : null };
    },

    /**
     * Adds a network to a currency (no id) or changes one, in the caller's transaction; terms
     * that break the shared rule, a network name the currency already has, or moving a
     * network to another currency answer 1016; an unknown currency or network 1008.
     */
    async setCoinNetwork(trx: Executor, body: ConfigSetCoinNetworkBody) {
      const feeType = withdrawFeeTypes.find((type) => type === body.withdrawFeeType);
      // The empty type (no fee) is one of them: absent is undefined, not falsy.
      if (feeType === undefined) throw refuse('withdrawFeeType must be PERCENTAGE, FIX_AMOUNT or empty');
      const terms = { ...body, withdrawFeeType: feeType as WithdrawFeeTypeName };
      const violation = coinNetworkTermsViolation(terms);
      if (violation) throw refuse(`${violation.field} ${violation.problem}`);
      if (!(await repository.lockCurrency(trx, body.currencyId))) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no currency ${body.currencyId}`);
      const row = {
        network: terms.network,
        deposit_address: terms.depositAddress,
        min_withdraw: decimal(money(terms.minWithdraw)),
        max_withdraw: decimal(money(terms.maxWithdraw)),
        withdraw_fee_type: terms.withdrawFeeType,
        withdraw_fee: decimal(money(terms.withdrawFee)),
        enabled: terms.enabled,
      };
      const sameName = await repository.coinNetworkIdByName(trx, body.currencyId, terms.network);
      let id: number;
      let before: StaffCoinNetwork | null = null;
      if (body.id === undefined) {
        if (sameName !== undefined) throw refuse(`network ${terms.network} already exists for this currency`);
        id = await repository.insertCoinNetwork(trx, { currency_id: body.currencyId, ...row });
      } else {
        id = body.id;
        if (!(await repository.lockCoinNetwork(trx, id))) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no network ${id}`);
        const current = (await repository.coinNetworks(trx)).find((item) => item.id === id);
        if (!current) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no network ${id}`);
        if (current.currencyId !== body.currencyId) throw refuse('a network cannot move to another currency');
        if (sameName !== undefined && sameName !== id) throw refuse(`network ${terms.network} already exists for this currency`);
        before = networkView(current);
        await repository.updateCoinNetwork(trx, id, row);
      }
      const after = (await repository.coinNetworks(trx)).find((item) => item.id === id);
      return { id, before, after: after ? networkView(after) : null };
    },

    /** The fee and what arrives for a transfer of `num` now. */
    async calculate(body: TransformCalculateBody) {
      const currency = await currencyById(body.currId, body.curr);
      const quote = quoteFor(currency, body.type, amountOf(body.num));
      return { fee: show(quote.fee), practical: show(quote.practical) };
    },

    /**
     * Moves a transfer at the quote the customer confirmed, in the caller's transaction
     * (the idempotency key's): a stale price refuses it (202), a quote that moved since
     * refuses it (1033, "the rate changed"), and a wallet or trading cash short of what
     * leaves refuses it (203). `key` names the journal.
     */
    async transform(trx: Parameters<Ledger['transferIn']>[0], uid: number, body: TransformBody, key: string) {
      const currency = await currencyById(body.currId, body.curr, trx);
      // A draft that says its amount is in another unit than the one it moves is not what the customer confirmed.
      if (body.unit !== undefined && body.unit !== transferAmountUnit(body.type, currency.code)) {
        throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `unit ${body.unit} is not the unit of this transfer's amount (${transferAmountUnit(body.type, currency.code)})`);
      }
      const quote = quoteFor(currency, body.type, amountOf(body.num));
      const seen = { fee: money(body.fee), practical: money(body.practical) };
      if (!quoteStillHolds(seen, quote)) {
        throw new AppError(ErrorCode.TRY_AGAIN_LATER, 'the quote moved', 200, { fee: show(quote.fee), practical: show(quote.practical) }, { key: 'wallet.quote_moved', params: {} });
      }
      if (quote.practical === 0n) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'the amount is too small to carry anything after its fee');
      const transfer = { uid, currency: currency.code, amount: quote.currencyAmount, usdAmount: quote.usdAmount, fee: quote.fee, key };
      if (body.type === TransferType.in) await ledger.transferIn(trx, transfer);
      else await ledger.transferOut(trx, transfer);
    },

    /** A page of the wallets' records, newest first. */
    async records(uid: number, body: WalletRecordsBody): Promise<WalletRecordsData> {
      const { lines, total } = await ledger.walletLines(uid, body.page, body.limit, body.type);
      return {
        list: lines.map((line) => ({
          orderType: recordTypeOf(line.journalKind),
          movement: movementOf(line.journalKind),
          currency: line.currency,
          uid: String(line.journalId),
          orderQuantity: formatMoney(line.amount, 2),
          unit: line.currency,
          orderTime: line.at.getTime(),
        })),
        pages: Math.ceil(total / body.limit),
      };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
